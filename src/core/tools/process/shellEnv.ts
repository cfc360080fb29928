/**
 * The environment commands run with: the host's, marked as Keel's, without pagers or
 * credential prompts (stdin is closed), and without CDPATH, so that `cd dir` goes where the
 * command approval rules expect.
 */
export function shellEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, KEEL: '1', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
  delete env.CDPATH;
  return env;
}
