import { useEffect, useRef } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps {
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  label: string;
  testId?: string;
  disabled?: boolean;
}

type ValueElement = HTMLElement & { value: string };

/**
 * A dropdown. The value is set after the options exist, or the element would not find it.
 * No `position`: set before the element is connected it pins the list below even at the
 * bottom of the view; left alone, the list opens where there is room.
 */
export function Select({ value, options, onChange, label, testId, disabled = false }: SelectProps) {
  const ref = useRef<ValueElement>(null);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const onSelect = (event: Event): void => {
      if (event.target === element && element.value !== undefined) latest.current(element.value);
    };
    element.addEventListener('change', onSelect);
    return () => element.removeEventListener('change', onSelect);
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (element && element.value !== value) element.value = value;
  }, [value, options]);

  return (
    <vscode-dropdown
      ref={ref}
      aria-label={label}
      title={label}
      data-testid={testId}
      disabled={disabled}
      className="ui-select"
    >
      {options.map((option) => (
        <vscode-option key={option.value} value={option.value}>
          {option.label}
        </vscode-option>
      ))}
    </vscode-dropdown>
  );
}
