import { Icon } from './Icon';

export interface IconButtonProps {
  icon: string;
  /** Read by screen readers and shown as the tooltip. */
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
}

export function IconButton({ icon, label, onClick, disabled = false, testId }: IconButtonProps) {
  return (
    <vscode-button
      appearance="icon"
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={testId}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      <Icon name={icon} />
    </vscode-button>
  );
}
