import { Icon } from './Icon';

export interface IconButtonProps {
  icon: string;
  /** Read by screen readers and shown as the tooltip. */
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
}

/** A codicon button drawn like VS Code's toolbar actions: no background until hovered. */
export function IconButton({ icon, label, onClick, disabled = false, testId }: IconButtonProps) {
  return (
    <button type="button" className="ui-icon-button" aria-label={label} title={label} disabled={disabled} data-testid={testId} onClick={onClick}>
      <Icon name={icon} />
    </button>
  );
}
