export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}

export type TodoListener = (items: readonly TodoItem[]) => void;

/** The agent's checklist for the current conversation; the UI subscribes to show it. */
export class TodoStore {
  private items: readonly TodoItem[] = [];
  private readonly listeners = new Set<TodoListener>();

  set(items: readonly TodoItem[]): void {
    this.items = Object.freeze(items.map((i) => Object.freeze({ id: i.id, content: i.content, status: i.status })));
    for (const listener of [...this.listeners]) listener(this.items);
  }

  get(): readonly TodoItem[] {
    return this.items;
  }

  /** Calls `listener` after every change; returns the function that unsubscribes it. */
  onChange(listener: TodoListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
