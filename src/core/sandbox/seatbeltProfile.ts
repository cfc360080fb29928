import { rootProtectedNames } from './protectedLayout';
import type { SandboxLayout } from './sandboxTypes';

/** A string literal in the profile language. */
function str(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A regex literal (`#"..."`) matching `text` literally. */
function literalRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '\\"');
}

const gitInternals = ['config', 'config\\.worktree', 'hooks', 'info', 'modules', 'worktrees', 'commondir'];

/**
 * A Seatbelt (sandbox-exec) profile with the same policy as the bubblewrap sandbox: read
 * everything but the secrets, write only the writable trees minus their protected paths
 * (by pattern, so missing ones cannot be created either) and the temporary folders, no
 * network unless `network`. Written from Apple's profile language (deny by default,
 * `require-all` / `require-not` filters); it has not been run on a Mac by the tests here.
 */
export function seatbeltProfile(layout: SandboxLayout, opts: { network: boolean; tmpDirs: string[] }): string {
  const protectedRegexes: string[] = [];
  for (const root of layout.patternRoots) {
    const base = `^${literalRegex(root)}/(.*/)?`;
    for (const name of rootProtectedNames) protectedRegexes.push(`${base}${literalRegex(name.path)}(/|$)`);
    protectedRegexes.push(`${base}[^/]*\\.code-workspace$`);
    protectedRegexes.push(`${base}\\.git$`);
    protectedRegexes.push(`${base}\\.git/(${gitInternals.join('|')})(/|$)`);
  }
  const notProtected = [
    ...protectedRegexes.map((r) => `(require-not (regex #"${r}"))`),
    ...layout.readOnly.map((p) => `(require-not (subpath ${str(p)}))`),
    // A folder that holds a protected path may be written into, but not renamed or removed.
    ...layout.heldParents.map((p) => `(require-not (literal ${str(p)}))`),
  ];
  const writable = layout.writable.map((w) => `(require-all (subpath ${str(w)}) ${notProtected.join(' ')})`);
  const hidden = layout.hidden.map((h) => (h.kind === 'dir' ? `(require-not (subpath ${str(h.path)}))` : `(require-not (literal ${str(h.path)}))`));
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    '(allow pseudo-tty)',
    `(allow file-read* (require-all ${hidden.length > 0 ? hidden.join(' ') : '(subpath "/")'}))`,
    // A rule without filters would allow every write: each is emitted only with its filters.
    ...(writable.length > 0 ? [`(allow file-write* ${writable.join(' ')})`] : []),
    ...(opts.tmpDirs.length > 0 ? [`(allow file-write* ${opts.tmpDirs.map((t) => `(subpath ${str(t)})`).join(' ')})`] : []),
    '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))',
  ];
  if (opts.network) {
    lines.push('(allow network-outbound)', '(allow network-inbound (local ip))', '(allow system-socket)');
  }
  return `${lines.join('\n')}\n`;
}
