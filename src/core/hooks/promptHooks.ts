import { KeelError, errorMessage } from '../errors';
import type { Hooks } from './hooks';

/**
 * The hooks around a message the person sent: SessionStart before a conversation's first one,
 * then UserPromptSubmit. Returns what they add for the model (with the message), or undefined;
 * throws when a hook blocks the message (nothing is sent or logged then).
 */
export async function promptHooks(hooks: Hooks | undefined, session: { id: string; first: boolean }, prompt: string, signal: AbortSignal): Promise<string | undefined> {
  if (!hooks) return undefined;
  const context: string[] = [];
  if (session.first) context.push(...(await hooks.run('SessionStart', { session_id: session.id, source: 'startup' }, signal)).context);
  const submitted = await hooks.run('UserPromptSubmit', { session_id: session.id, prompt }, signal);
  if (submitted.blocked) throw new KeelError('hook', `A UserPromptSubmit hook blocked this message: ${submitted.blocked}`);
  context.push(...submitted.context);
  return context.length ? context.join('\n\n') : undefined;
}

/** The Stop hooks, once a run has ended; what they say is logged (Keel does not continue a run for them). */
export async function stopHooks(hooks: Hooks | undefined, sessionId: string, status: string, log: (message: string) => void): Promise<void> {
  if (!hooks) return;
  try {
    const verdict = await hooks.run('Stop', { session_id: sessionId, stop_hook_active: false, status }, new AbortController().signal);
    if (verdict.blocked) log(`hooks: a Stop hook asked to continue (${verdict.blocked}); Keel does not continue a run for a hook`);
  } catch (err) {
    log(`hooks: the Stop hooks failed: ${errorMessage(err)}`);
  }
}
