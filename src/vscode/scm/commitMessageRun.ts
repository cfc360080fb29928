import { KeelError, errorMessage } from '../../core/errors';
import { readCommitChanges, writeCommitMessage } from '../../core/git';
import type { CoreAccess } from '../../chat/runtime/coreAccess';
import { redactSecrets } from '../../chat/runs/runErrors';

export type CommitMessageOutcome =
  | { kind: 'written'; message: string }
  | { kind: 'nothing' }
  | { kind: 'noModel' }
  | { kind: 'failed'; error: string };

/** A commit message has this long to arrive; a small model takes seconds. */
const timeoutMs = 60_000;

/**
 * Writes a commit message for the repository at `root` with the small model, handing the text so
 * far to `onText` as it streams. Holds the core for the call, so a settings change meanwhile
 * does not shut its model down under it.
 */
export async function commitMessageFor(core: CoreAccess, root: string, onText: (soFar: string) => void): Promise<CommitMessageOutcome> {
  const held = await core.hold();
  try {
    const { ctx } = held.built;
    let model;
    try {
      model = ctx.models.resolve('smallModel').model;
    } catch (err) {
      if (err instanceof KeelError && err.code === 'model_not_configured') return { kind: 'noModel' };
      throw err;
    }
    const signal = AbortSignal.timeout(timeoutMs);
    const changes = await readCommitChanges(root, signal);
    if (!changes) return { kind: 'nothing' };
    const message = await writeCommitMessage(model, changes, onText, signal);
    return message ? { kind: 'written', message } : { kind: 'failed', error: 'the model gave no message' };
  } catch (err) {
    return { kind: 'failed', error: redactSecrets(errorMessage(err), held.built.secrets) };
  } finally {
    held.release();
  }
}
