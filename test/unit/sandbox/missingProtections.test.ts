import { describe, expect, it } from 'vitest';
import { bubblewrapBackend } from '../../../src/core/sandbox/bubblewrap';
import { describeShortfall, protections, sandboxShortfall } from '../../../src/core/sandbox/missingProtections';
import { seatbeltBackend } from '../../../src/core/sandbox/seatbelt';
import { seccompLaunch } from '../../../src/core/sandbox/seccompLaunch';
import type { SandboxBackend } from '../../../src/core/sandbox/sandboxTypes';

const withFilter = seccompLaunch('/keel-seccomp/x64.bpf');
const none = { available: false as const, reason: 'bubblewrap (bwrap) is not installed or not on PATH' };
const found = (backend: SandboxBackend) => ({ available: true as const, backend });

describe('which protections commands lack here', () => {
  it('with the real bubblewrap and nothing named missing, every protection holds and nothing is said', () => {
    const s = sandboxShortfall('auto', found({ ...bubblewrapBackend('/usr/bin/bwrap', withFilter), weaknesses: [] } as SandboxBackend));
    expect(s).toEqual({ missing: [], kind: 'none' });
    expect(describeShortfall(s)).toBeUndefined();
    // With its seccomp filter, bubblewrap lacks none of these.
    expect(sandboxShortfall('auto', found(bubblewrapBackend('/usr/bin/bwrap', withFilter))).missing).toEqual([]);
  });

  it('without a sandbox (setting auto) every protection is missing, and the notice names each and why', () => {
    const s = sandboxShortfall('auto', none);
    expect(s.missing).toEqual([...protections]);
    expect(s.kind).toBe('unavailable');
    const text = describeShortfall(s)!;
    expect(text).toContain('not installed or not on PATH');
    for (const words of ['writes confined to the workspace', 'no network', 'Unix sockets', 'secret files', 'other processes', 'held to reading']) {
      expect(text).toContain(words);
    }
  });

  it('with the setting off every protection is missing by the person’s choice; with "on" commands are refused', () => {
    expect(sandboxShortfall('off', found(bubblewrapBackend('/usr/bin/bwrap', withFilter))).missing).toEqual([...protections]);
    expect(describeShortfall(sandboxShortfall('off', none))).toMatch(/^The OS sandbox is off \(your setting\)/);
    const refused = sandboxShortfall('on', none);
    expect(refused.missing).toEqual([]);
    expect(describeShortfall(refused)).toMatch(/commands are refused/);
  });

  it("reads the backend's own weaknesses: no seccomp filter means host sockets are reachable", () => {
    const weak = { ...bubblewrapBackend('/usr/bin/bwrap', withFilter), weaknesses: [{ protection: 'host-sockets', reason: 'seccomp is not applied on this kernel' }] };
    const s = sandboxShortfall('auto', found(weak as SandboxBackend));
    expect(s).toEqual({ missing: ['sockets'], kind: 'partial', reason: 'seccomp is not applied on this kernel' });
    expect(describeShortfall(s)).toBe(
      "The OS sandbox here lacks: no connections to your machine's services through Unix sockets (Docker and the like). Why: seccomp is not applied on this kernel.",
    );
  });

  it('macOS Seatbelt: processes are shared, sockets not known to be stopped, and it is said to be untested', () => {
    const s = sandboxShortfall('auto', found(seatbeltBackend()));
    expect(s.missing).toEqual(['sockets', 'processes']);
    expect(s.untested).toBe(true);
    expect(describeShortfall(s)).toMatch(/macOS Seatbelt, which Keel's own tests have not run/);
  });
});

describe('the bubblewrap backend names what it lacks', () => {
  it('without its seccomp filter: host sockets, with the reason', () => {
    const s = sandboxShortfall('auto', found(bubblewrapBackend('/usr/bin/bwrap', undefined, 'the kernel refused it')));
    expect(s.missing).toEqual(['sockets']);
    expect(describeShortfall(s)).toContain('the kernel refused it');
  });
});
