import type { ReactNode } from 'react';

export function Badge({ children, title, testId }: { children: ReactNode; title?: string; testId?: string }) {
  return (
    <vscode-badge title={title} data-testid={testId}>
      {children}
    </vscode-badge>
  );
}
