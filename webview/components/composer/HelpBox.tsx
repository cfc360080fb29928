import { IconButton } from '../../ui/IconButton';
import { SLASH_COMMANDS } from './slashCommands';

/** /help: the commands and keys, until closed. */
export function HelpBox({ onClose }: { onClose: () => void }) {
  return (
    <section className="help-box" aria-label="Help" data-testid="help-box">
      <header className="help-box-title">
        <span>Commands and keys</span>
        <IconButton icon="close" label="Close help" onClick={onClose} />
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
          <dd>Add a file or folder to the message</dd>
        </div>
        <div className="help-row">
          <dt>Enter / Shift+Enter</dt>
          <dd>Send / new line</dd>
        </div>
        <div className="help-row">
          <dt>Paste an image</dt>
          <dd>Attach it (if the model takes images)</dd>
        </div>
      </dl>
    </section>
  );
}
