import { describe, expect, it } from 'vitest';
import { sandboxFailureNote } from '../../../src/core/sandbox/sandboxFailure';
import { seccompArch, seccompBytes } from '../../../src/core/sandbox/seccompFilter';
import type { SeccompArch } from '../../../src/core/sandbox/seccompFilter';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL = 0x80000000;
const ARCH = { x64: 0xc000003e, arm64: 0xc00000b7, i386: 0x40000003, arm: 0x40000028 };

/**
 * Runs the program as the kernel would, from its bytes: classic BPF with the instructions
 * the filter may use (load word, jump-if-equal, jump-if-at-least, return). Anything else
 * fails the test, as the kernel's checker would refuse it.
 */
function verdict(bytes: Buffer, call: { arch: number; nr: number; args?: number[] }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((a, i) => data.writeBigUInt64LE(BigInt.asUintN(64, BigInt(a)), 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc < bytes.length / 8; ) {
    const code = bytes.readUInt16LE(pc * 8);
    const jt = bytes.readUInt8(pc * 8 + 2);
    const jf = bytes.readUInt8(pc * 8 + 3);
    const k = bytes.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      expect(k % 4).toBe(0);
      acc = data.readUInt32LE(k);
      pc++;
    } else if (code === 0x15) pc += 1 + (acc === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (acc >= k ? jt : jf);
    else if (code === 0x06) return k;
    else throw new Error(`unexpected BPF instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program fell off its end');
}

describe('the seccomp filter', () => {
  const x64 = seccompBytes('x64');

  it('is whole sock_filter records, and checks the architecture before anything else', () => {
    expect(x64.length % 8).toBe(0);
    expect(x64.length / 8).toBeLessThan(64);
    // ld [4] (seccomp_data.arch), then a jump on AUDIT_ARCH_X86_64.
    expect([x64.readUInt16LE(0), x64.readUInt32LE(4)]).toEqual([0x20, 4]);
    expect([x64.readUInt16LE(8), x64.readUInt32LE(12)]).toEqual([0x15, ARCH.x64]);
  });

  const cases: [SeccompArch, { socket: number; socketpair: number; ioctl: number; read: number }][] = [
    ['x64', { socket: 41, socketpair: 53, ioctl: 16, read: 0 }],
    ['arm64', { socket: 198, socketpair: 199, ioctl: 29, read: 63 }],
  ];
  for (const [arch, nr] of cases) {
    describe(arch, () => {
      const prog = seccompBytes(arch);
      const call = (n: number, args: number[] = []) => verdict(prog, { arch: ARCH[arch], nr: n, args });

      it('allows IPv4, IPv6 and netlink routing sockets, and refuses Unix sockets and every other family', () => {
        expect(call(nr.socket, [2, 1, 0])).toBe(ALLOW);
        expect(call(nr.socket, [10, 2, 0])).toBe(ALLOW);
        expect(call(nr.socket, [16, 3, 0])).toBe(ALLOW);
        expect(call(nr.socket, [16, 3, 9])).toBe(EPERM); // NETLINK_AUDIT
        expect(call(nr.socket, [16, 3, 4])).toBe(EPERM); // NETLINK_SOCK_DIAG
        for (const family of [1, 17, 38, 40, 44, 0, 255]) expect(call(nr.socket, [family, 1, 0]), `family ${family}`).toBe(EPERM);
        // High bits are ignored by the kernel (the family is an int), so they must not get past the filter either.
        expect(call(nr.socket, [2 ** 32 + 1, 1, 0])).toBe(EPERM);
      });

      it('allows socketpair(AF_UNIX) only', () => {
        expect(call(nr.socketpair, [1, 1, 0])).toBe(ALLOW);
        expect(call(nr.socketpair, [2, 1, 0])).toBe(EPERM);
      });

      it('refuses TIOCSTI and TIOCLINUX, also with high bits set, and allows other ioctls', () => {
        expect(call(nr.ioctl, [0, 0x5412])).toBe(EPERM);
        expect(call(nr.ioctl, [0, 2 ** 32 + 0x5412])).toBe(EPERM);
        expect(call(nr.ioctl, [0, 0x541c])).toBe(EPERM);
        expect(call(nr.ioctl, [0, 0x5413])).toBe(ALLOW); // TIOCGWINSZ
      });

      it('answers io_uring with ENOSYS (it could make sockets without socket()), and allows the rest', () => {
        for (const n of [425, 426, 427]) expect(call(n)).toBe(ENOSYS);
        expect(call(nr.read)).toBe(ALLOW);
      });

      it('kills a process that calls through another ABI', () => {
        for (const foreign of [ARCH.i386, ARCH.arm, arch === 'x64' ? ARCH.arm64 : ARCH.x64]) {
          expect(verdict(prog, { arch: foreign, nr: 0 })).toBe(KILL);
        }
      });
    });
  }

  it('kills x32 system calls on x86-64 (their numbers carry bit 30)', () => {
    expect(verdict(x64, { arch: ARCH.x64, nr: 0x40000000 + 41, args: [1, 1, 0] })).toBe(KILL);
    expect(verdict(x64, { arch: ARCH.x64, nr: 0x40000000 })).toBe(KILL);
  });

  it('has a filter for x86-64 and arm64 only', () => {
    expect(seccompArch('x64')).toBe('x64');
    expect(seccompArch('arm64')).toBe('arm64');
    expect(seccompArch('ia32')).toBeUndefined();
    expect(seccompArch('riscv64')).toBeUndefined();
  });
});

describe('the note on a command the sandbox stopped', () => {
  it('names refused Unix sockets when the output shows one, and asks nothing else of the network', () => {
    const docker = sandboxFailureNote('permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock\nExit code: 1', true);
    expect(docker).toMatch(/Unix sockets .* are refused, also with the network/);
    expect(docker).not.toMatch(/network: true/);
    expect(sandboxFailureNote("touch: cannot touch '/etc/x': Read-only file system", false)).not.toMatch(/Unix sockets/);
  });
});
