import * as l10n from '@vscode/l10n';
import { Icon } from '../../ui/Icon';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';
import { DetailsNote } from './DetailsNote';

const statusIcon = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', completed: 'pass' } as const;

/** The todo list as the call leaves it. */
export function TodoListDetails({ details }: { details: ToolDetailsOf<'todoList'> }) {
  if (details.items.length === 0) return <DetailsNote kind="todoList" text={l10n.t('(no items)')} />;
  return (
    <ul className="tool-details tool-details-todos" data-testid="tool-details" data-kind="todoList">
      {details.items.map((item, i) => (
        <li key={i} data-status={item.status}>
          <Icon name={statusIcon[item.status]} /> {item.content}
        </li>
      ))}
    </ul>
  );
}
