import type { ReactNode } from 'react';

export interface ButtonProps {
  children: ReactNode;
  onClick: () => void;
  appearance?: 'primary' | 'secondary';
  disabled?: boolean;
  title?: string;
  testId?: string;
}

export function Button({ children, onClick, appearance = 'primary', disabled = false, title, testId }: ButtonProps) {
  return (
    <vscode-button
      appearance={appearance}
      disabled={disabled}
      title={title}
      data-testid={testId}
      // A disabled web component can still receive a click on its host element.
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {children}
    </vscode-button>
  );
}
