import { childEnv, noExtraEnv } from '../../env/childEnv';
import type { ChildEnvPolicy } from '../../env/childEnv';

/** What Keel sets for every command: marked as Keel's, no pagers, no credential prompts (stdin is closed). */
export const commandEnvSettings: Readonly<Record<string, string>> = { KEEL: '1', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };

/**
 * The environment commands run with: the allow-listed part of the host's (never the whole of
 * it, which holds the person's tokens and Keel's key), plus commandEnvSettings. CDPATH is not
 * on the list, so `cd dir` goes where the command approval rules expect.
 */
export function shellEnv(policy: ChildEnvPolicy = noExtraEnv, host: Readonly<Record<string, string | undefined>> = process.env): NodeJS.ProcessEnv {
  return { ...childEnv(host, policy), ...commandEnvSettings };
}
