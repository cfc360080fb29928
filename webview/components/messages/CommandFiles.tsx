import type { CommandFile } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { RevertAction } from './RevertAction';

const KIND_LABEL = { added: 'Added', modified: 'Modified', deleted: 'Deleted' } as const;

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
              title={f.kind === 'modified' ? `Show what the command changed in ${f.displayPath}` : `Show ${f.displayPath} as ${f.kind}`}
              onClick={() => void bridge.openCommandDiff(f.id)}
            >
              <span className={`command-file-kind command-file-${f.kind}`}>{KIND_LABEL[f.kind]}</span>{' '}
              <span className="approval-card-path">{f.displayPath}</span>
            </button>
            {f.added !== undefined ? (
              <span className="command-file-counts" data-testid="command-file-counts">
                <span className="diff-added">+{f.added}</span> <span className="diff-removed">−{f.removed ?? 0}</span>
              </span>
            ) : null}
            {f.reverted ? <span className="tool-card-change-note">undone</span> : null}
            {!f.restorable && !f.reverted ? <span className="tool-card-change-note">not restorable (large or binary: recorded by hash only)</span> : null}
          </li>
        ))}
        {moreFiles ? <li className="tool-card-change-note">and {moreFiles} more</li> : null}
      </ul>
      {open.length > 0 ? (
        <div className="tool-card-change">
          <RevertAction
            label="Undo"
            title={`Put back the ${open.length === 1 ? 'file' : `${open.length} files`} this command changed`}
            testId="undo-command"
            run={(force) => bridge.undoCommand(toolCallId, force)}
          />
        </div>
      ) : (
        <div className="tool-card-change">
          <span className="tool-card-change-note" data-testid="command-undone">
            undone
          </span>
        </div>
      )}
    </div>
  );
}
