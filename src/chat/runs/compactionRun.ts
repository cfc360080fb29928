import * as l10n from '@vscode/l10n';
import type { RequestResult } from '../../protocol/catalogue';
import type { HeldCore } from '../runtime/coreLoader';
import type { QueuedRun, RunTurn } from '../../core/runQueue';
import { uiErrorOf } from './runContext';
import type { RunContext } from './runContext';
import { showCompacted } from './sendRun';

type CompactResult = RequestResult<'session.compact'>;

/** `/compact` as a run of the queue: Stop cancels it (nothing is written then). */
export class CompactionRun implements QueuedRun {
  private settle!: (result: CompactResult) => void;
  /** What the person is told when the run is over. */
  readonly result = new Promise<CompactResult>((resolve) => {
    this.settle = resolve;
  });

  constructor(private readonly rc: RunContext) {}

  dropped(): void {
    this.settle({ status: 'failed', message: l10n.t('The conversation was not compacted; nothing was changed.') });
  }

  async run(turn: RunTurn): Promise<void> {
    const { rc } = this;
    const { signal } = turn;
    rc.state.setRun({ running: true });
    rc.activity();
    let held: HeldCore | undefined;
    try {
      held = await rc.core.hold();
      const project = rc.slot.for(held.built.ctx);
      let failure = l10n.t('The conversation was not compacted; nothing was changed.');
      const outcome = await project.compact({
        turn,
        onEvent: (e) => {
          if (e.type === 'compaction' && e.phase === 'failed') failure = e.error;
          rc.state.apply(e, () => signal.aborted);
          if (e.type === 'compaction') showCompacted(rc, e, project.session);
        },
      });
      if (outcome === 'nothing') this.settle({ status: 'nothing', message: l10n.t('There is nothing to compact yet.') });
      else if (outcome === 'failed') this.settle({ status: 'failed', message: failure });
      else this.settle({ status: 'compacted', message: l10n.t('{0} messages were summarized.', outcome.compactedMessages) });
    } catch (err) {
      const error = uiErrorOf(rc.core, err);
      rc.state.error(error);
      this.settle({ status: 'failed', message: error.message });
    } finally {
      held?.release();
    }
  }
}
