import * as l10n from '@vscode/l10n';
import { IconButton } from '../../ui/IconButton';
import { SLASH_COMMANDS } from './slashCommands';

/** /help: the commands and keys, until closed. */
export function HelpBox({ onClose }: { onClose: () => void }) {
  return (
    <section className="help-box" aria-label={l10n.t('Help')} data-testid="help-box">
      <header className="help-box-title">
        <span>{l10n.t('Commands and keys')}</span>
        <IconButton icon="close" label={l10n.t('Close help')} onClick={onClose} />
      </header>
      <dl>
        {SLASH_COMMANDS.map((command) => (
          <div key={command.name} className="help-row">
            <dt>
              /{command.name}
              {command.argument ? ` ${command.argument}` : ''}
            </dt>
            <dd>{command.description}</dd>
          </div>
        ))}
        <div className="help-row">
          <dt>@</dt>
          <dd>{l10n.t('Add a file or folder to the message')}</dd>
        </div>
        <div className="help-row">
          <dt>Enter / Shift+Enter</dt>
          <dd>{l10n.t('Send / new line')}</dd>
        </div>
        <div className="help-row">
          <dt>{l10n.t('Paste an image')}</dt>
          <dd>{l10n.t('Attach it (if the model takes images)')}</dd>
        </div>
      </dl>
    </section>
  );
}
