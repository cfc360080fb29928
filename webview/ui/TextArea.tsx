import { useCallback, useLayoutEffect, useRef } from 'react';
import type { ClipboardEvent, CompositionEvent, KeyboardEvent, Ref } from 'react';

export interface TextAreaProps {
  value: string;
  onChange: (value: string, caret: number) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  onPaste?: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
  onCompositionStart?: (event: CompositionEvent<HTMLTextAreaElement>) => void;
  onCompositionEnd?: (event: CompositionEvent<HTMLTextAreaElement>) => void;
  onSelect?: (caret: number) => void;
  placeholder?: string;
  label: string;
  testId?: string;
  ref?: Ref<HTMLTextAreaElement>;
  ariaControls?: string;
  ariaActiveDescendant?: string;
  ariaExpanded?: boolean;
  disabled?: boolean;
}

/**
 * A native textarea styled with the theme's input colours. Not the toolkit's: the
 * composer needs the caret position (for @ and /), composition events and paste,
 * which the toolkit keeps inside a shadow root. It grows with its text up to the
 * stylesheet's max-height, then scrolls.
 */
export function TextArea({
  value,
  onChange,
  onKeyDown,
  onPaste,
  onCompositionStart,
  onCompositionEnd,
  onSelect,
  placeholder,
  label,
  testId,
  ref,
  ariaControls,
  ariaActiveDescendant,
  ariaExpanded,
  disabled,
}: TextAreaProps) {
  const own = useRef<HTMLTextAreaElement | null>(null);
  const setRef = useCallback(
    (element: HTMLTextAreaElement | null) => {
      own.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );

  useLayoutEffect(() => {
    const element = own.current;
    if (!element) return undefined;
    const fit = (): void => {
      element.style.height = 'auto';
      // Empty, it is as tall as its placeholder (which wraps in a narrow view); the placeholder
      // itself does not count in scrollHeight, so measure it as if it were the text.
      if (element.value === '' && placeholder) {
        element.value = placeholder;
        element.style.height = `${element.scrollHeight}px`;
        element.value = '';
      } else {
        element.style.height = `${element.scrollHeight}px`;
      }
    };
    fit();
    // A narrower or wider view wraps the text differently. The element's own width is watched too:
    // drawn while hidden (behind the early view) it measures nothing, and the window does not
    // resize when it appears, which left the box shorter than one line.
    // (The unit tests' DOM has no ResizeObserver; every webview has.)
    let width = element.clientWidth;
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => {
            if (element.clientWidth === width) return;
            width = element.clientWidth;
            fit();
          });
    observer?.observe(element);
    window.addEventListener('resize', fit);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', fit);
    };
  }, [value, placeholder]);

  return (
    <textarea
      ref={setRef}
      className="ui-text-area"
      rows={1}
      value={value}
      placeholder={placeholder}
      aria-label={label}
      aria-controls={ariaControls}
      aria-activedescendant={ariaActiveDescendant}
      // Only a combobox has an expanded state; on a plain textbox the attribute is invalid ARIA.
      aria-expanded={ariaControls ? ariaExpanded : undefined}
      aria-autocomplete={ariaControls ? 'list' : undefined}
      role={ariaControls ? 'combobox' : undefined}
      data-testid={testId}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value, event.target.selectionStart)}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      onCompositionStart={onCompositionStart}
      onCompositionEnd={onCompositionEnd}
      onSelect={(event) => onSelect?.(event.currentTarget.selectionStart)}
    />
  );
}
