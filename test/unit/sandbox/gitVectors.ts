import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every way a repository can make the git that reads it run a program: config keys naming
 * programs, drivers named by `.gitattributes`, hooks, and an included config file. Each one
 * runs `evil.sh NAME`, which leaves a file NAME in the markers folder: a marker is proof that
 * the host ran what the repository said.
 */
export interface GitVectors {
  /** Where the markers land (outside every workspace). */
  markers: string;
  /** The program every vector names. */
  evil: string;
  /** The shell script that plants the vectors in the git repository at the current folder, tagged. */
  plant(tag: string): string;
  /** The markers present now. */
  found(): Promise<string[]>;
  clear(): Promise<void>;
}

export const hookNames = ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction', 'post-index-change', 'pre-auto-gc', 'post-merge', 'post-rewrite', 'pre-push'];

export async function gitVectors(root: string): Promise<GitVectors> {
  const markers = join(root, 'markers');
  const evil = join(root, 'evil.sh');
  await mkdir(markers, { recursive: true });
  // Output nothing and succeed: git carries on, so every later vector gets its chance too.
  await writeFile(evil, `#!/bin/sh\ntouch "${markers}/$1"\nexit 0\n`);
  await chmod(evil, 0o755);
  const ran = (tag: string, what: string) => `${evil} ${tag}-${what}`;
  const plant = (tag: string): string => {
    const config: Array<[string, string]> = [
      ['core.fsmonitor', ran(tag, 'fsmonitor')],
      ['filter.evil.clean', ran(tag, 'filter-clean')],
      ['filter.evil.smudge', ran(tag, 'filter-smudge')],
      ['filter.evil.required', 'true'],
      ['filter.evilp.process', ran(tag, 'filter-process')],
      ['diff.evil.command', ran(tag, 'diff-command')],
      ['diff.evilt.textconv', ran(tag, 'textconv')],
      ['merge.evil.driver', ran(tag, 'merge-driver')],
      ['diff.external', ran(tag, 'diff-external')],
      ['core.pager', ran(tag, 'pager')],
      ['pager.status', ran(tag, 'pager-status')],
      ['pager.log', ran(tag, 'pager-log')],
      ['pager.diff', ran(tag, 'pager-diff')],
      ['core.editor', ran(tag, 'editor')],
      ['sequence.editor', ran(tag, 'sequence-editor')],
      ['core.sshCommand', ran(tag, 'ssh-command')],
      ['core.gitProxy', ran(tag, 'git-proxy')],
      ['core.askPass', ran(tag, 'askpass')],
      ['credential.helper', `!${ran(tag, 'credential-helper')}`],
      ['core.alternateRefsCommand', ran(tag, 'alternate-refs')],
      // Run without a shell: a program of the repository's own, next to it.
      ['gpg.program', '$PWD/.gpg-program'],
      ['log.showSignature', 'true'],
      ['gc.auto', '1'],
      ['include.path', '../included.gitconfig'],
    ];
    const included = `[filter "inc"]\n\tclean = ${ran(tag, 'include-filter-clean')}\n\tsmudge = ${ran(tag, 'include-filter-smudge')}\n[diff "inc"]\n\tcommand = ${ran(tag, 'include-diff-command')}\n`;
    const lines = [
      'set -e',
      // Committed first, by the repository's own git, before anything is planted.
      `printf 'one\\n' > a.txt && printf 'two\\n' > b.p && printf 'three\\n' > c.inc && printf 'four\\n' > d.t`,
      `printf '* filter=evil diff=evil merge=evil\\n*.p filter=evilp\\n*.t diff=evilt\\n*.inc filter=inc diff=inc\\n' > .gitattributes`,
      'git add -A && git -c user.name=f -c user.email=f@e commit -q -m planted',
      // A signed commit on top, so a log that checks signatures runs gpg.program.
      `c=$(printf 'tree %s\\nparent %s\\nauthor f <f@e> 0 +0000\\ncommitter f <f@e> 0 +0000\\ngpgsig -----BEGIN PGP SIGNATURE-----\\n \\n iQ\\n -----END PGP SIGNATURE-----\\n\\nsigned\\n' "$(git rev-parse HEAD^{tree})" "$(git rev-parse HEAD)" | git hash-object -t commit -w --stdin)`,
      'git update-ref HEAD "$c"',
      ...config.map(([key, value]) => `git config --add ${key} "${value}"`),
      `printf '#!/bin/sh\\n${ran(tag, 'gpg')}\\n' > .gpg-program && chmod +x .gpg-program`,
      `printf '%s' '${included}' > included.gitconfig`,
      `hooks=$(git rev-parse --git-path hooks) && mkdir -p "$hooks"`,
      ...hookNames.map((h) => `printf '#!/bin/sh\\n${ran(tag, `hook-${h}`)}\\n' > "$hooks/${h}" && chmod +x "$hooks/${h}"`),
      // Changed after: one file grows, one keeps its size (git must read it to know).
      `printf 'one, changed\\n' > a.txt && printf 'TWO\\n' > b.p && printf 'THREE\\n' > c.inc && printf 'FOUR\\n' > d.t`,
    ];
    return `${lines.join('\n')}\n`;
  };
  return {
    markers,
    evil,
    plant,
    found: async () => (await readdir(markers)).sort(),
    clear: async () => {
      for (const name of await readdir(markers)) await rm(join(markers, name), { force: true });
    },
  };
}
