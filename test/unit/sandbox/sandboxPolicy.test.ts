import { describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../../src/core/sandbox/bwrapArgs';
import { rootProtectedNames } from '../../../src/core/sandbox/protectedLayout';
import { seatbeltProfile } from '../../../src/core/sandbox/seatbeltProfile';
import type { SandboxLayout } from '../../../src/core/sandbox/sandboxTypes';

const layout: SandboxLayout = {
  writable: ['/ws'],
  readOnly: ['/ws/.vscode', '/ws/.git/config', '/ws/.git/hooks'],
  missing: [{ path: '/ws/CLAUDE.md', kind: 'file' }],
  hidden: [
    { path: '/home/me/.ssh', kind: 'dir' },
    { path: '/home/me/.netrc', kind: 'file' },
  ],
  mustNotAppear: ['/ws/.git/commondir'],
  patternRoots: ['/ws'],
  gitDirs: ['/ws/.git'],
  heldParents: ['/ws/.git'],
  notes: [],
  scannedDirs: ['/ws'],
  scannedAt: 0,
};

describe('the sandbox policy as bubblewrap arguments', () => {
  it('binds the workspace writable, then protected paths read-only over it, then hides secrets', () => {
    const args = bwrapArgs(layout, { cwd: '/ws/src', network: false }).join(' ');
    expect(args).toMatch(/^--unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind \/ \/ --dev \/dev --proc \/proc --tmpfs \/tmp /);
    const order = ['--bind /ws /ws', '--ro-bind /ws/.vscode /ws/.vscode', '--ro-bind /ws/CLAUDE.md /ws/CLAUDE.md', '--tmpfs /home/me/.ssh', '--ro-bind /dev/null /home/me/.netrc'];
    const at = order.map((o) => args.indexOf(o));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(args).toMatch(/--chdir \/ws\/src$/);
    expect(args).not.toContain('--share-net');
  });

  it('shares the network only when asked', () => {
    expect(bwrapArgs(layout, { cwd: '/ws', network: true })).toContain('--share-net');
  });

  it('holds the root-level protected names from the shared list, outermost only', () => {
    const names = rootProtectedNames.map((n) => `${n.path}:${n.kind}`);
    expect(names).toEqual(expect.arrayContaining(['.vscode:dir', '.git:dir', '.keel:dir', 'AGENTS.md:file', 'CLAUDE.md:file', '.mcp.json:file']));
    expect(names).not.toContain('.vscode/mcp.json:file');
    expect(names).not.toContain('.keel/rules:dir');
  });
});

describe('the Seatbelt profile (macOS; generated, not run here)', () => {
  const profile = seatbeltProfile(layout, { network: false, tmpDirs: ['/private/tmp'] });

  it('denies by default, reads all but the secrets, writes the workspace minus protected paths', () => {
    expect(profile).toMatch(/^\(version 1\)\n\(deny default\)\n/);
    expect(profile).toContain('(allow file-read* (require-all (require-not (subpath "/home/me/.ssh")) (require-not (literal "/home/me/.netrc"))))');
    expect(profile).toContain('(allow file-write* (require-all (subpath "/ws") ');
    expect(profile).toContain('(require-not (regex #"^/ws/(.*/)?\\.vscode(/|$)"))');
    expect(profile).toContain('(require-not (regex #"^/ws/(.*/)?\\.git/(config|config\\.worktree|hooks|info|modules|worktrees|commondir)(/|$)"))');
    expect(profile).toContain('(allow file-write* (subpath "/private/tmp"))');
  });

  it('never emits a write rule without filters (that would allow every write)', () => {
    const bare = seatbeltProfile({ ...layout, writable: [] }, { network: false, tmpDirs: [] });
    expect(bare).not.toMatch(/\(allow file-write\* *\)/);
    expect(bare).not.toContain('(allow file-write* ');
  });

  it('allows the network only when asked', () => {
    expect(profile).not.toContain('network');
    expect(seatbeltProfile(layout, { network: true, tmpDirs: [] })).toContain('(allow network-outbound)');
  });
});
