import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { errorMessage } from '../errors';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import type { SandboxedStart } from '../sandbox/sandboxTypes';
import { killProcessTree } from '../tools/process/killProcessTree';
import type { Hook } from './hookFiles';

/** What a hook said: stop what it was asked about, add words for the model, or it failed (and changes nothing). */
export interface HookOutcome {
  blocked?: string;
  context?: string;
  failed?: string;
}

export interface HookRunDeps {
  shell: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  sandbox: CommandSandbox;
  signal: AbortSignal;
}

/** Output beyond this is cut: a hook's words go to the model. */
const maxOutputChars = 20_000;

/**
 * Runs one hook as Claude Code documents it: the event's JSON on stdin; exit 0 with a JSON
 * object on stdout (`decision: "block"`, `continue: false`, `hookSpecificOutput.permissionDecision:
 * "deny"`, `additionalContext`) or plain text (context, for prompt and session events); exit 2
 * blocks with stderr as the reason; any other exit is the hook's own failure and blocks nothing.
 * It runs in the OS sandbox commands run in (no network), with the commands' environment.
 */
export async function runHook(hook: Hook, payload: Record<string, unknown>, deps: HookRunDeps): Promise<HookOutcome> {
  const plan = await deps.sandbox.plan(false);
  if (plan.kind === 'refused') return { failed: `not run: ${plan.reason}` };
  let start: SandboxedStart | undefined;
  try {
    if (plan.kind === 'sandboxed') start = await deps.sandbox.start({ cwd: deps.cwd, network: false });
    const ran = await spawnHook([...(start?.prefix ?? []), deps.shell, '-c', hook.command], JSON.stringify(payload), hook.timeout * 1000, deps);
    return readOutcome(hook, ran);
  } catch (err) {
    return { failed: errorMessage(err) };
  } finally {
    await start?.release();
  }
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function spawnHook(argv: string[], input: string, timeoutMs: number, deps: HookRunDeps): Promise<Ran> {
  return new Promise((resolve, reject) => {
    // Node's stdin pipe is a socket, and bash on a socket with no SHLVL takes itself for an ssh
    // session and reads ~/.bashrc (60 ms here, and the person's shell setup): one level says it is not.
    const env = { ...deps.env, SHLVL: '1' };
    const child = spawn(argv[0]!, argv.slice(1), { cwd: deps.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + out.write(chunk)).slice(0, maxOutputChars)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + err.write(chunk)).slice(0, maxOutputChars)));
    const stop = (): void => {
      if (child.pid !== undefined) killProcessTree(child.pid, 'SIGKILL', () => undefined);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    deps.signal.addEventListener('abort', stop, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      deps.signal.removeEventListener('abort', stop);
      resolve({ code, stdout: stdout + out.end(), stderr: stderr + err.end(), timedOut });
    });
    // A hook that does not read its input must not fail the run: a closed pipe is fine.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

function readOutcome(hook: Hook, ran: Ran): HookOutcome {
  if (ran.timedOut) return { failed: `did not finish within ${hook.timeout} s` };
  if (ran.code === 2) return { blocked: ran.stderr.trim() || `blocked by a ${hook.event} hook` };
  if (ran.code !== 0) return { failed: `exited with ${ran.code ?? 'a signal'}${ran.stderr.trim() ? `: ${ran.stderr.trim().split('\n')[0]}` : ''}` };
  const text = ran.stdout.trim();
  if (text === '') return {};
  const json = parseObject(text);
  if (!json) return hook.event === 'UserPromptSubmit' || hook.event === 'SessionStart' ? { context: text } : {};
  const specific = (typeof json.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null ? json.hookSpecificOutput : {}) as Record<string, unknown>;
  const reason = str(json.reason) ?? str(specific.permissionDecisionReason) ?? str(json.stopReason);
  const outcome: HookOutcome = {};
  if (json.decision === 'block' || json.continue === false || specific.permissionDecision === 'deny') outcome.blocked = reason ?? `blocked by a ${hook.event} hook`;
  const context = str(specific.additionalContext);
  if (context) outcome.context = context;
  return outcome;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
