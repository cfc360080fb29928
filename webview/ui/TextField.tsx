import { useEffect, useRef } from 'react';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label: string;
  /** Shown on hover: what the short placeholder leaves out. */
  title?: string;
  maxLength?: number;
  testId?: string;
  autoFocus?: boolean;
  onEnter?: () => void;
}

/**
 * A single-line field: a native input in the theme's input colours. Listens on the element
 * itself and writes `value` only when it differs, so the caret stays where it is while typing.
 */
export function TextField({ value, onChange, placeholder, label, title, maxLength, testId, autoFocus, onEnter }: TextFieldProps) {
  const ref = useRef<HTMLInputElement>(null);
  const latest = useRef({ onChange, onEnter });
  latest.current = { onChange, onEnter };

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const onInput = (): void => latest.current.onChange(element.value);
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key === 'Enter' && !event.isComposing && latest.current.onEnter) {
        event.preventDefault();
        latest.current.onEnter();
      }
    };
    element.addEventListener('input', onInput);
    element.addEventListener('keydown', onKeyDown);
    if (autoFocus) element.focus();
    return () => {
      element.removeEventListener('input', onInput);
      element.removeEventListener('keydown', onKeyDown);
    };
  }, [autoFocus]);

  useEffect(() => {
    const element = ref.current;
    if (element && element.value !== value) element.value = value;
  }, [value]);

  return (
    <input
      ref={ref}
      type="text"
      className="ui-text-field"
      defaultValue={value}
      placeholder={placeholder}
      aria-label={label}
      title={title}
      maxLength={maxLength}
      data-testid={testId}
    />
  );
}
