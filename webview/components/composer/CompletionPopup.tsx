import { Icon } from '../../ui/Icon';

export interface CompletionItem {
  key: string;
  icon: string;
  label: string;
  detail?: string;
}

export interface CompletionPopupProps {
  id: string;
  items: readonly CompletionItem[];
  active: number;
  label: string;
  onPick: (index: number) => void;
}

export function completionOptionId(popupId: string, index: number): string {
  return `${popupId}-option-${index}`;
}

/** The @-file or /-command list under the caret; keys are handled by the composer (aria-activedescendant). */
export function CompletionPopup({ id, items, active, label, onPick }: CompletionPopupProps) {
  return (
    <ul className="completion-popup" id={id} role="listbox" aria-label={label} data-testid="completion-popup">
      {items.map((item, index) => (
        <li
          key={item.key}
          id={completionOptionId(id, index)}
          role="option"
          aria-selected={index === active}
          className={`completion-item${index === active ? ' completion-item-active' : ''}`}
          data-testid="completion-item"
          // mousedown, not click: the textarea must keep focus.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(index);
          }}
        >
          <Icon name={item.icon} />
          <span className="completion-label">{item.label}</span>
          {item.detail ? <span className="completion-detail">{item.detail}</span> : null}
        </li>
      ))}
    </ul>
  );
}
