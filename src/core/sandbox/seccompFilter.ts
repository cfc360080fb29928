/**
 * The seccomp program bubblewrap loads for every sandboxed command (`--seccomp FD`), built
 * here as raw classic-BPF instructions (`struct sock_filter`, 8 bytes each). What it holds
 * is one invariant: a sandboxed process has no way to another process on the machine but the
 * network the person approved. So it:
 *
 * - refuses `socket()` for every family but IPv4 and IPv6 (which the network namespace
 *   governs) and netlink's NETLINK_ROUTE (what `getifaddrs()` and glibc's address
 *   selection read; a kernel interface of the sandbox's own namespace, changing it needs a
 *   capability the sandbox does not have). A Unix socket stays refused even when the network
 *   is approved: approving `npm install` is about the internet, not the Docker daemon, and
 *   with the host's network namespace the host's abstract sockets would be reachable too.
 * - allows `socketpair(AF_UNIX)`: an unnamed pair reaches no one, and libuv, Python and git
 *   use it between a parent and its children.
 * - refuses io_uring, which can create sockets without the `socket()` system call.
 * - refuses the TIOCSTI and TIOCLINUX ioctls (typing into a terminal), besides bubblewrap's
 *   `--new-session`.
 * - kills a process that makes system calls of another ABI (32-bit x86 through `int 0x80`,
 *   x32, 32-bit ARM), whose numbers this program does not check.
 */

export type SeccompArch = 'x64' | 'arm64';

const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
/** System call numbers of each ABI (arm64 uses the generic table). */
const NR = {
  x64: { ioctl: 16, socket: 41, socketpair: 53, ioUringSetup: 425, ioUringEnter: 426, ioUringRegister: 427 },
  arm64: { ioctl: 29, socket: 198, socketpair: 199, ioUringSetup: 425, ioUringEnter: 426, ioUringRegister: 427 },
} as const;
/** x32 system calls on x86-64 carry this bit in their number. */
const X32_SYSCALL_BIT = 0x40000000;

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const NETLINK_ROUTE = 0;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;
const ENOSYS = 38;

const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

/** Offsets in `struct seccomp_data` (little-endian: an argument's low 32 bits come first). */
const OFF_NR = 0;
const OFF_ARCH = 4;
const offArgLow = (i: number) => 16 + 8 * i;

export interface SockFilter {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** The architectures Keel has a filter for: Node's name for this machine's, or undefined. */
export function seccompArch(arch: string = process.arch): SeccompArch | undefined {
  return arch === 'x64' || arch === 'arm64' ? arch : undefined;
}

/**
 * The program as instructions. Jumps are written to labels and resolved at the end, so the
 * shape stays readable; classic BPF only jumps forward, at most 255 instructions.
 */
export function seccompProgram(arch: SeccompArch): SockFilter[] {
  const nr = NR[arch];
  const prog = new Program();
  prog.load(OFF_ARCH);
  prog.jumpUnless(AUDIT_ARCH[arch], 'kill');
  prog.load(OFF_NR);
  if (arch === 'x64') prog.jumpIfAtLeast(X32_SYSCALL_BIT, 'kill');
  prog.jumpIf(nr.socket, 'socket');
  prog.jumpIf(nr.socketpair, 'socketpair');
  prog.jumpIf(nr.ioctl, 'ioctl');
  prog.jumpIf(nr.ioUringSetup, 'nosys');
  prog.jumpIf(nr.ioUringEnter, 'nosys');
  prog.jumpIf(nr.ioUringRegister, 'nosys');
  prog.ret(RET_ALLOW);

  prog.label('socket');
  // The kernel reads the family and the protocol as ints: the low 32 bits decide.
  prog.load(offArgLow(0));
  prog.jumpIf(AF_INET, 'allow');
  prog.jumpIf(AF_INET6, 'allow');
  prog.jumpUnless(AF_NETLINK, 'eperm');
  prog.load(offArgLow(2));
  prog.jumpIf(NETLINK_ROUTE, 'allow');
  prog.ret(RET_ERRNO | EPERM);

  prog.label('socketpair');
  prog.load(offArgLow(0));
  prog.jumpIf(AF_UNIX, 'allow');
  prog.ret(RET_ERRNO | EPERM);

  prog.label('ioctl');
  // The request is an unsigned int to the kernel: the low 32 bits are what it acts on.
  prog.load(offArgLow(1));
  prog.jumpIf(TIOCSTI, 'eperm');
  prog.jumpIf(TIOCLINUX, 'eperm');
  prog.ret(RET_ALLOW);

  prog.label('allow');
  prog.ret(RET_ALLOW);
  prog.label('eperm');
  prog.ret(RET_ERRNO | EPERM);
  prog.label('nosys');
  prog.ret(RET_ERRNO | ENOSYS);
  prog.label('kill');
  prog.ret(RET_KILL_PROCESS);
  return prog.resolve();
}

/** The program as the kernel takes it: `struct sock_filter[]` in this machine's byte order. */
export function seccompBytes(arch: SeccompArch): Buffer {
  const prog = seccompProgram(arch);
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach((ins, i) => {
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(ins.jt, i * 8 + 2);
    out.writeUInt8(ins.jf, i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
}

type Pending = { code: number; k: number; jt?: string; jf?: string };

class Program {
  private readonly ins: Pending[] = [];
  private readonly labels = new Map<string, number>();

  load(offset: number): void {
    this.ins.push({ code: LD_W_ABS, k: offset });
  }
  jumpIf(value: number, label: string): void {
    this.ins.push({ code: JEQ_K, k: value, jt: label });
  }
  jumpUnless(value: number, label: string): void {
    this.ins.push({ code: JEQ_K, k: value, jf: label });
  }
  jumpIfAtLeast(value: number, label: string): void {
    this.ins.push({ code: JGE_K, k: value, jt: label });
  }
  ret(value: number): void {
    this.ins.push({ code: RET_K, k: value });
  }
  label(name: string): void {
    this.labels.set(name, this.ins.length);
  }

  resolve(): SockFilter[] {
    return this.ins.map((ins, i) => ({ code: ins.code, k: ins.k, jt: this.offset(ins.jt, i), jf: this.offset(ins.jf, i) }));
  }

  private offset(label: string | undefined, at: number): number {
    if (label === undefined) return 0;
    const target = this.labels.get(label);
    if (target === undefined) throw new Error(`seccomp program: no label ${label}`);
    const jump = target - at - 1;
    if (jump < 0 || jump > 255) throw new Error(`seccomp program: jump to ${label} out of range (${jump})`);
    return jump;
  }
}
