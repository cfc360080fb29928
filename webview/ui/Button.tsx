import type { ReactNode } from 'react';

export interface ButtonProps {
  children: ReactNode;
  onClick: () => void;
  appearance?: 'primary' | 'secondary';
  disabled?: boolean;
  title?: string;
  testId?: string;
}

/** A text button in the theme's button colours (primary: the call to action; secondary: the others). */
export function Button({ children, onClick, appearance = 'primary', disabled = false, title, testId }: ButtonProps) {
  return (
    <button type="button" className={`ui-button ui-button-${appearance}`} disabled={disabled} title={title} data-testid={testId} onClick={onClick}>
      {children}
    </button>
  );
}
