import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Icon } from './Icon';
import { placeSelectList } from './selectPlacement';
import { selectKeyAction, TYPE_AHEAD_MS, typeAheadMatch } from './selectKeys';

export interface SelectOption {
  value: string;
  label: string;
  /** What the option is, on hover and for screen readers (an agent's description). */
  description?: string;
}

export interface SelectProps {
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  label: string;
  testId?: string;
  disabled?: boolean;
}

/**
 * A dropdown: a button (role `combobox`) that shows the chosen option's whole label, wrapped
 * over lines when the view is narrower than it, and opens a listbox of the options. Not a
 * native `<select>`, whose closed box cuts a long model name to one line. Focus stays on the
 * button; the highlighted option is its `aria-activedescendant`. Keys: arrows, Home/End,
 * PageUp/PageDown, Enter or Space to choose, Escape to close unchanged, Tab to choose and
 * move on, and letters to jump to an option by its label.
 */
export function Select({ value, options, onChange, label, testId, disabled = false }: SelectProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const typed = useRef({ text: '', at: 0 });
  const chosen = options.findIndex((option) => option.value === value);
  const optionId = (index: number): string => `${listId}-option-${index}`;

  const show = (index: number): void => {
    setActive(index);
    setOpen(true);
  };
  const close = (): void => {
    setOpen(false);
    typed.current.text = '';
  };
  const choose = (index: number): void => {
    close();
    const option = options[index];
    if (option && option.value !== value) onChange(option.value);
  };

  // Placed where there is room (below, or above at the bottom of the view), as wide as its
  // longest label allows.
  useLayoutEffect(() => {
    if (!open || !button.current || !list.current) return undefined;
    const anchor = button.current;
    placeSelectList(anchor, list.current);
    // The list does not follow its button: a resize closes it, and so does a scroll that moved
    // the button (the message list scrolling under a reply does not move the footer's).
    const at = anchor.getBoundingClientRect();
    const onResize = (): void => close();
    const onScroll = (): void => {
      const now = anchor.getBoundingClientRect();
      if (now.top !== at.top || now.left !== at.left) close();
    };
    window.addEventListener('resize', onResize);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      window.removeEventListener('resize', onResize);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open]);
  // The highlighted option is scrolled into sight.
  useLayoutEffect(() => {
    if (!open || active < 0) return;
    const element = list.current?.children[active];
    // The unit tests' DOM has no scrollIntoView; every webview has.
    if (element && typeof element.scrollIntoView === 'function') element.scrollIntoView({ block: 'nearest' });
  }, [open, active]);
  // Options that change while the list is open (a model list arriving) keep the highlight in range.
  if (open && active >= options.length) setActive(options.length - 1);
  if (open && (disabled || options.length === 0)) setOpen(false);

  const typeAhead = (char: string, at: number): void => {
    const state = typed.current;
    state.text = at - state.at <= TYPE_AHEAD_MS ? state.text + char : char;
    state.at = at;
    const from = open ? active : chosen;
    const found = typeAheadMatch(
      options.map((option) => option.label),
      from,
      state.text,
    );
    if (found >= 0) show(found);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    if (disabled || event.nativeEvent.isComposing) return;
    const typing = typed.current.text !== '' && event.timeStamp - typed.current.at <= TYPE_AHEAD_MS;
    const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (printable && (event.key !== ' ' || typing)) {
      // A letter never reaches the button (a Space would press it, closing the list).
      event.preventDefault();
      typeAhead(event.key, event.timeStamp);
      return;
    }
    const action = selectKeyAction(event.key, event.altKey, { open, active: open ? active : chosen, count: options.length });
    if (action.kind === 'none') return;
    // Tab chooses and lets focus move on; every other key is the list's alone.
    if (event.key !== 'Tab') event.preventDefault();
    if (action.kind === 'close') {
      // Escape closes the list only, not a panel around it.
      event.stopPropagation();
      close();
    } else if (action.kind === 'choose') choose(action.active);
    else show(action.active);
  };

  return (
    <div className="ui-select">
      <button
        ref={button}
        type="button"
        role="combobox"
        className="ui-select-button"
        aria-label={label}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        title={label}
        data-testid={testId}
        data-value={value}
        disabled={disabled}
        onClick={() => (open ? close() : show(chosen < 0 ? 0 : chosen))}
        onKeyDown={onKeyDown}
        onBlur={close}
      >
        <span className="ui-select-value">{options[chosen]?.label ?? ''}</span>
        <Icon name="chevron-down" />
      </button>
      <ul
        ref={list}
        id={listId}
        className="ui-select-list"
        role="listbox"
        aria-label={label}
        hidden={!open}
        // The button keeps focus when the list (or its scroll bar) is pressed; a click on an option chooses it.
        onMouseDown={(event) => event.preventDefault()}
      >
        {options.map((option, index) => (
          <li
            key={option.value}
            id={optionId(index)}
            role="option"
            aria-selected={index === (open ? active : chosen)}
            title={option.description || undefined}
            aria-description={option.description || undefined}
            className={`ui-select-option${open && index === active ? ' ui-select-option-active' : ''}${index === chosen ? ' ui-select-option-chosen' : ''}`}
            onMouseMove={() => {
              if (index !== active) setActive(index);
            }}
            onClick={() => choose(index)}
          >
            {option.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
