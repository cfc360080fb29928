import * as l10n from '@vscode/l10n';
import type { TodoItem } from '../../../src/protocol/sessionState';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';

const STATUS_ICON: Record<TodoItem['status'], string> = {
  pending: 'circle-large-outline',
  in_progress: 'arrow-circle-right',
  completed: 'pass-filled',
  cancelled: 'circle-slash',
};

/** The agent's todo list: a live checklist while the agent works, folded to one line otherwise. */
export function TodoPanel() {
  const todos = useMeta((meta) => meta.todos);
  const running = useMeta((meta) => meta.run.running);
  if (todos.length === 0) return null;
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const current = todos.find((todo) => todo.status === 'in_progress');
  return (
    <details className="todo-panel" data-testid="todo-panel" open={running || undefined}>
      <summary>
        {l10n.t('Todos {0}/{1}', done, todos.length)}
        {current ? <span className="todo-current"> · {current.content}</span> : null}
      </summary>
      <ul>
        {todos.map((todo) => (
          <li key={todo.id} className={`todo todo-${todo.status}`} data-status={todo.status}>
            <Icon name={STATUS_ICON[todo.status]} />
            <span>{todo.content}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
