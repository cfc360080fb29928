import * as l10n from '@vscode/l10n';
import type { CommandFile } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { RevertAction } from './RevertAction';

function kindLabel(kind: CommandFile['kind']): string {
  return kind === 'added' ? l10n.t('Added') : kind === 'modified' ? l10n.t('Modified') : l10n.t('Deleted');
}

/** The files a command added, modified and deleted: each opens its diff; Undo puts them all back. */
export function CommandFiles({ toolCallId, files, moreFiles }: { toolCallId: string; files: CommandFile[]; moreFiles?: number | undefined }) {
  const bridge = useBridge();
  const open = files.filter((f) => !f.reverted);
  return (
    <div className="command-files" data-testid="command-files">
      <ul className="command-files-list">
        {files.map((f) => (
          <li key={f.id} className="command-file" data-testid="command-file" data-kind={f.kind} data-reverted={f.reverted}>
            <button
              type="button"
              className="command-file-open"
              title={
                f.kind === 'modified'
                  ? l10n.t('Show what the command changed in {0}', f.displayPath)
                  : f.kind === 'added'
                    ? l10n.t('Show {0} as the command added it', f.displayPath)
                    : l10n.t('Show {0} as it was before the command deleted it', f.displayPath)
              }
              onClick={() => void bridge.call('commandChange.diff', { changeId: f.id })}
            >
              <span className={`command-file-kind command-file-${f.kind}`}>{kindLabel(f.kind)}</span>{' '}
              <span className="approval-card-path">{f.displayPath}</span>
            </button>
            {f.added !== undefined ? (
              <span className="command-file-counts" data-testid="command-file-counts">
                <span className="diff-added">+{f.added}</span> <span className="diff-removed">−{f.removed ?? 0}</span>
              </span>
            ) : null}
            {f.reverted ? <span className="tool-card-change-note">{l10n.t('undone')}</span> : null}
            {!f.restorable && !f.reverted ? <span className="tool-card-change-note">{l10n.t('not restorable (large or binary: recorded by hash only)')}</span> : null}
          </li>
        ))}
        {moreFiles ? <li className="tool-card-change-note">{l10n.t('and {0} more', moreFiles)}</li> : null}
      </ul>
      {open.length > 0 ? (
        <div className="tool-card-change">
          <RevertAction
            label={l10n.t('Undo')}
            title={open.length === 1 ? l10n.t('Put back the file this command changed') : l10n.t('Put back the {0} files this command changed', open.length)}
            testId="undo-command"
            run={(force) => bridge.call('command.undo', force ? { toolCallId, force } : { toolCallId })}
          />
        </div>
      ) : (
        <div className="tool-card-change">
          <span className="tool-card-change-note" data-testid="command-undone">
            {l10n.t('undone')}
          </span>
        </div>
      )}
    </div>
  );
}
