// @vitest-environment jsdom
import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Select } from '../../../webview/ui/Select';
import type { SelectOption } from '../../../webview/ui/Select';
import { selectKeyAction, typeAheadMatch } from '../../../webview/ui/selectKeys';
import { click } from './webviewHarness';

const MODELS: SelectOption[] = [
  { value: 'anthropic/claude-sonnet', label: 'Claude Sonnet' },
  { value: 'openai/gpt-x', label: 'GPT X' },
  { value: 'openai/gpt-y', label: 'GPT Y (a very long name a narrow view has to wrap over lines)' },
  { value: 'google/gemini', label: 'Gemini' },
  { value: 'openai/gpt-z', label: 'gpt z' },
];

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(async () => {
  await act(async () => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

interface Mounted {
  button: HTMLButtonElement;
  list: () => HTMLElement;
  chosen: ReturnType<typeof vi.fn<(value: string) => void>>;
  /** Keys that reached the element around the select (a panel's Escape handler would be there). */
  outside: string[];
}

/** A Select whose value follows onChange, as the footer's pickers do through the host. */
async function mount(options: SelectOption[] = MODELS, first = 'openai/gpt-x', disabled = false): Promise<Mounted> {
  const chosen = vi.fn<(value: string) => void>();
  const outside: string[] = [];
  function Harness() {
    const [value, setValue] = useState(first);
    return createElement(Select, {
      value,
      options,
      label: 'Model',
      testId: 'picker',
      disabled,
      onChange: (next: string) => {
        chosen(next);
        setValue(next);
      },
    });
  }
  container = document.createElement('div');
  const inner = document.createElement('div');
  container.append(inner);
  container.addEventListener('keydown', (event) => outside.push(event.key));
  document.body.append(container);
  root = createRoot(inner);
  await act(async () => root!.render(createElement(Harness)));
  const button = container.querySelector<HTMLButtonElement>('[data-testid="picker"]')!;
  await act(async () => button.focus());
  const list = (): HTMLElement => document.getElementById(button.getAttribute('aria-controls')!)!;
  return { button, list, chosen, outside };
}

/** Presses a key on the focused select; true when the page let the browser's default happen. */
async function press(button: HTMLElement, key: string, init: KeyboardEventInit = {}, timeStamp?: number): Promise<boolean> {
  let notCancelled = true;
  await act(async () => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    if (timeStamp !== undefined) Object.defineProperty(event, 'timeStamp', { value: timeStamp });
    notCancelled = button.dispatchEvent(event);
  });
  return notCancelled;
}

/** The label of the option the select highlights (its aria-activedescendant), or null when closed. */
function highlighted(button: HTMLElement): string | null {
  const id = button.getAttribute('aria-activedescendant');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const isOpen = (m: Mounted): boolean => m.button.getAttribute('aria-expanded') === 'true' && !m.list().hidden;

describe('the Select', () => {
  it('is a combobox button showing the chosen label, with a closed listbox of options', async () => {
    const m = await mount();
    expect(m.button.tagName).toBe('BUTTON');
    expect(m.button.getAttribute('role')).toBe('combobox');
    expect(m.button.getAttribute('aria-label')).toBe('Model');
    expect(m.button.getAttribute('aria-haspopup')).toBe('listbox');
    expect(m.button.textContent).toBe('GPT X');
    expect(m.button.getAttribute('data-value')).toBe('openai/gpt-x');
    expect(isOpen(m)).toBe(false);
    expect(m.button.hasAttribute('aria-activedescendant')).toBe(false);
    expect(m.list().getAttribute('role')).toBe('listbox');
    const options = [...m.list().querySelectorAll('[role="option"]')];
    expect(options.map((o) => o.textContent)).toEqual(MODELS.map((o) => o.label));
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false', 'false', 'false']);
  });

  it('opens on ArrowDown at the chosen option, moves with the arrows and chooses with Enter', async () => {
    const m = await mount();
    expect(await press(m.button, 'ArrowDown')).toBe(false);
    expect(isOpen(m)).toBe(true);
    expect(highlighted(m.button)).toBe('GPT X');
    await press(m.button, 'ArrowDown');
    await press(m.button, 'ArrowDown');
    expect(highlighted(m.button)).toBe('Gemini');
    await press(m.button, 'ArrowUp');
    expect(highlighted(m.button)).toBe(MODELS[2]!.label);
    await press(m.button, 'Enter');
    expect(m.chosen).toHaveBeenCalledWith('openai/gpt-y');
    expect(isOpen(m)).toBe(false);
    expect(m.button.textContent).toBe(MODELS[2]!.label);
    expect(document.activeElement).toBe(m.button);
  });

  it('stops at the ends, and Home and End jump to them', async () => {
    const m = await mount();
    await press(m.button, 'End');
    expect(isOpen(m)).toBe(true);
    expect(highlighted(m.button)).toBe('gpt z');
    await press(m.button, 'ArrowDown');
    expect(highlighted(m.button)).toBe('gpt z');
    await press(m.button, 'Home');
    await press(m.button, 'ArrowUp');
    expect(highlighted(m.button)).toBe('Claude Sonnet');
    await press(m.button, ' ');
    expect(m.chosen).toHaveBeenCalledWith('anthropic/claude-sonnet');
  });

  it('closes on Escape without choosing, and the Escape goes no further', async () => {
    const m = await mount();
    await press(m.button, 'ArrowDown');
    await press(m.button, 'ArrowDown');
    m.outside.length = 0;
    await press(m.button, 'Escape');
    expect(isOpen(m)).toBe(false);
    expect(m.chosen).not.toHaveBeenCalled();
    expect(m.button.textContent).toBe('GPT X');
    expect(m.outside).toEqual([]);
    // Closed, Escape is not the select's: a panel around it may close.
    await press(m.button, 'Escape');
    expect(m.outside).toEqual(['Escape']);
  });

  it('chooses the highlighted option on Tab and lets focus move on', async () => {
    const m = await mount();
    await press(m.button, 'ArrowDown');
    await press(m.button, 'ArrowDown');
    expect(await press(m.button, 'Tab')).toBe(true);
    expect(m.chosen).toHaveBeenCalledWith('openai/gpt-y');
    expect(isOpen(m)).toBe(false);
  });

  it('jumps to an option by the letters typed, and the same letter again steps to the next', async () => {
    const m = await mount();
    await press(m.button, 'g', {}, 1000);
    expect(isOpen(m)).toBe(true);
    expect(highlighted(m.button)).toBe(MODELS[2]!.label);
    await press(m.button, 'g', {}, 1100);
    expect(highlighted(m.button)).toBe('Gemini');
    await press(m.button, 'g', {}, 1200);
    expect(highlighted(m.button)).toBe('gpt z');
    // After a pause a new word starts; "gpt z" with its space is one word typed quickly.
    await press(m.button, 'c', {}, 3000);
    expect(highlighted(m.button)).toBe('Claude Sonnet');
    for (const [index, key] of [...'gpt z'].entries()) await press(m.button, key, {}, 5000 + index * 100);
    expect(highlighted(m.button)).toBe('gpt z');
    expect(isOpen(m)).toBe(true);
    await press(m.button, 'Enter');
    expect(m.chosen).toHaveBeenCalledWith('openai/gpt-z');
  });

  it('opens and chooses with the mouse', async () => {
    const m = await mount();
    await click(m.button);
    expect(isOpen(m)).toBe(true);
    expect(highlighted(m.button)).toBe('GPT X');
    await click([...m.list().querySelectorAll('[role="option"]')].find((o) => o.textContent === 'Gemini')!);
    expect(m.chosen).toHaveBeenCalledWith('google/gemini');
    expect(isOpen(m)).toBe(false);
    await click(m.button);
    await click(m.button);
    expect(isOpen(m)).toBe(false);
  });

  it('closes when focus leaves it', async () => {
    const m = await mount();
    await press(m.button, 'ArrowDown');
    await act(async () => m.button.blur());
    expect(isOpen(m)).toBe(false);
    expect(m.chosen).not.toHaveBeenCalled();
  });

  it('stays open while something else scrolls, and closes when a scroll moves it', async () => {
    const m = await mount();
    await press(m.button, 'ArrowDown');
    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    await act(async () => elsewhere.dispatchEvent(new Event('scroll')));
    expect(isOpen(m)).toBe(true);
    m.button.getBoundingClientRect = () => new DOMRect(0, -40, 100, 26);
    await act(async () => elsewhere.dispatchEvent(new Event('scroll')));
    expect(isOpen(m)).toBe(false);
    elsewhere.remove();
  });

  it('does not open or choose while disabled', async () => {
    const m = await mount(MODELS, 'openai/gpt-x', true);
    expect(m.button.disabled).toBe(true);
    await click(m.button);
    await press(m.button, 'ArrowDown');
    await press(m.button, 'g');
    expect(isOpen(m)).toBe(false);
    expect(m.chosen).not.toHaveBeenCalled();
  });

  it('does not report choosing the option already chosen', async () => {
    const m = await mount();
    await press(m.button, 'ArrowDown');
    await press(m.button, 'Enter');
    expect(m.chosen).not.toHaveBeenCalled();
  });
});

describe('type-ahead matching', () => {
  const labels = ['Ask before edits and commands', 'Auto-approve edits', 'Never ask'];
  it('finds the label that starts with the word, ignoring case, from the current one on', () => {
    expect(typeAheadMatch(labels, -1, 'au')).toBe(1);
    expect(typeAheadMatch(labels, 1, 'AU')).toBe(1);
    expect(typeAheadMatch(labels, 0, 'ask b')).toBe(0);
    expect(typeAheadMatch(labels, 0, 'n')).toBe(2);
    expect(typeAheadMatch(labels, 0, 'x')).toBe(-1);
  });
  it('steps through the labels starting with a repeated letter, wrapping around', () => {
    expect(typeAheadMatch(labels, 0, 'a')).toBe(1);
    expect(typeAheadMatch(labels, 1, 'aa')).toBe(0);
    expect(typeAheadMatch(labels, 2, 'a')).toBe(0);
  });
});

describe('the keys of an open list', () => {
  const open = { open: true, active: 3, count: 30 };
  it('pages by ten without leaving the list', () => {
    expect(selectKeyAction('PageDown', false, open)).toEqual({ kind: 'move', active: 13 });
    expect(selectKeyAction('PageUp', false, open)).toEqual({ kind: 'move', active: 0 });
    expect(selectKeyAction('PageDown', false, { ...open, active: 25 })).toEqual({ kind: 'move', active: 29 });
  });
  it('chooses on Alt+ArrowUp, as a native select does', () => {
    expect(selectKeyAction('ArrowUp', true, open)).toEqual({ kind: 'choose', active: 3 });
  });
  it('ignores keys that are not its own, and every key when there are no options', () => {
    expect(selectKeyAction('F2', false, open)).toEqual({ kind: 'none' });
    expect(selectKeyAction('ArrowDown', false, { open: false, active: -1, count: 0 })).toEqual({ kind: 'none' });
    expect(selectKeyAction('Escape', false, { open: false, active: 0, count: 3 })).toEqual({ kind: 'none' });
  });
});
