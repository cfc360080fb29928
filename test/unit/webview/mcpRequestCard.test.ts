// @vitest-environment jsdom
// An MCP server's request as the person meets it on the page: a form with its fields (types,
// defaults, required marks, choices) that Accept checks before anything is sent; a page to open
// only on Open; a sampling request whose last user message can be edited before Run. What the
// page sends is the `mcp.answer` the host gets; the card follows the host's later state.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpAnswer, McpRequestPart } from '../../../src/protocol/mcpRequests';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { bookingFields } from '../../fixtures/mcp/bookingForm.ts';
import { click, mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const form: McpRequestPart = {
  type: 'mcpRequest',
  requestId: 'r1',
  server: 'asking',
  state: 'open',
  request: {
    kind: 'form',
    message: 'Where do you want to stay?',
    fields: bookingFields,
  },
};

const holding = (part: McpRequestPart): UiMessage => ({ id: 'a1', role: 'assistant', status: 'done', createdAt: 1, parts: [{ type: 'text', text: 'Asking.' }, part] });

/** Mounts the page with the card and answers `mcp.answer` as `settled`, keeping what was sent. */
async function mount(part: McpRequestPart, settled = true): Promise<McpAnswer[]> {
  app = await mountApp();
  const answers: McpAnswer[] = [];
  app.host.handle('mcp.answer', ({ requestId, answer }) => {
    expect(requestId).toBe(part.requestId);
    answers.push(answer);
    return { settled };
  });
  await act(async () => {
    app!.host.emit('snapshot', snapshot({ messages: [holding(part)] }));
  });
  await settle();
  return answers;
}

/** Types into a React-controlled input or textarea, or picks in a select, as the browser does. */
async function enter(element: Element, value: string): Promise<void> {
  const proto = element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(element, value);
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

const field = (name: string, selector: string): HTMLInputElement => app!.byTestId(`mcp-field-${name}`).querySelector(selector)!;

describe('an MCP form card', () => {
  it('shows each field as its type asks, with defaults and required marks', async () => {
    await mount(form);
    const card = app!.byTestId('mcp-request');
    expect(card.dataset.state).toBe('open');
    expect(card.textContent).toContain('MCP server asking asks');
    expect(card.textContent).toContain('Where do you want to stay?');
    expect(app!.byTestId('mcp-field-city').querySelector('.mcp-field-required')).not.toBeNull();
    expect(app!.byTestId('mcp-field-nights').querySelector('.mcp-field-required')).toBeNull();
    expect(field('nights', 'input').value).toBe('2');
    expect(field('breakfast', 'input').type).toBe('checkbox');
    expect(field('breakfast', 'input').checked).toBe(false);
    const options = [...app!.byTestId('mcp-field-room').querySelectorAll('option')].map((o) => `${o.value}=${o.textContent}`);
    expect(options).toEqual(['=Choose…', 'single=Single room', 'double=Double room']);
  });

  it('Accept says what is missing or wrong and sends nothing; filled in, it sends the typed values', async () => {
    const answers = await mount(form);
    await enter(field('nights', 'input'), 'two');
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([]);
    expect(app!.byTestId('mcp-field-city-problem').textContent).toBe('City is required');
    expect(app!.byTestId('mcp-field-nights-problem').textContent).toBe('Nights must be a number');
    expect(app!.byTestId('mcp-field-room-problem').textContent).toBe('Room is required');

    await enter(field('city', 'input'), 'Lisbon');
    await enter(field('nights', 'input'), '3');
    await click(field('breakfast', 'input'));
    await enter(field('room', 'select'), 'double');
    expect(app!.queryByTestId('mcp-field-city-problem')).toBeNull();
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([{ action: 'accept', content: { city: 'Lisbon', nights: 3, breakfast: true, room: 'double' } }]);

    await act(async () => {
      app!.host.emit('mcpRequest', { messageId: 'a1', part: { ...form, state: 'accepted' } });
    });
    await settle();
    expect(app!.byTestId('mcp-request').dataset.state).toBe('accepted');
    expect(app!.byTestId('mcp-request-state').textContent).toBe('accepted');
    expect(app!.queryByTestId('mcp-accept')).toBeNull();
  });

  it("a field with the server's bounds or form says what it expects", async () => {
    const answers = await mount({
      ...form,
      request: {
        kind: 'form',
        message: 'Contact',
        fields: [
          { name: 'mail', label: 'Mail', kind: 'text', required: true, format: 'email' },
          { name: 'guests', label: 'Guests', kind: 'integer', required: true, min: 1, max: 4 },
        ],
      },
    });
    expect(field('mail', 'input').placeholder).toBe('an email address');
    await enter(field('mail', 'input'), 'me-at-example');
    await enter(field('guests', 'input'), '9');
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([]);
    expect(app!.byTestId('mcp-field-mail-problem').textContent).toBe('Mail must be an email address');
    expect(app!.byTestId('mcp-field-guests-problem').textContent).toBe('Guests must be at most 4');
    await enter(field('mail', 'input'), 'me@example.com');
    await enter(field('guests', 'input'), '3');
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([{ action: 'accept', content: { mail: 'me@example.com', guests: 3 } }]);
  });

  it('Decline and Cancel send the protocol answers', async () => {
    const answers = await mount(form);
    await click(app!.byTestId('mcp-decline'));
    await settle();
    expect(answers).toEqual([{ action: 'decline' }]);
    await app!.unmount();
    const again = await mount(form);
    await click(app!.byTestId('mcp-cancel'));
    await settle();
    expect(again).toEqual([{ action: 'cancel' }]);
  });

  it('an answer the host no longer waits for says so', async () => {
    await mount(form, false);
    await click(app!.byTestId('mcp-decline'));
    await settle();
    expect(app!.byTestId('mcp-request').textContent).toContain('The server no longer waits for this answer.');
    expect(app!.queryByTestId('mcp-accept')).toBeNull();
  });
});

describe('an MCP page-to-open card', () => {
  it('shows the address and opens it only through Open', async () => {
    const answers = await mount({ ...form, requestId: 'r2', request: { kind: 'url', message: 'Confirm the payment', url: 'https://pay.example/confirm?id=7' } });
    expect(app!.byTestId('mcp-url').textContent).toBe('https://pay.example/confirm?id=7');
    expect(app!.byTestId('mcp-accept').textContent).toBe('Open');
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([{ action: 'accept' }]);
  });
});

describe('an MCP sampling card', () => {
  const sampling: McpRequestPart = {
    type: 'mcpRequest',
    requestId: 'r3',
    server: 'asking',
    state: 'open',
    request: {
      kind: 'sampling',
      modelId: 'scripted/scripted-model',
      systemPrompt: 'You summarize.',
      messages: [
        { role: 'user', text: 'Earlier' },
        { role: 'assistant', text: 'Noted.' },
        { role: 'user', text: 'Summarize: the report' },
      ],
      lastUserText: 'Summarize: the report',
      maxTokens: 200,
    },
  };

  it('shows the server, model, system prompt and messages; Run sends the last user message as edited', async () => {
    const answers = await mount(sampling);
    const card = app!.byTestId('mcp-request');
    expect(card.textContent).toContain('MCP server asking asks to run a request on your model (scripted/scripted-model)');
    expect(card.querySelector('.mcp-sampling-system pre')?.textContent).toBe('You summarize.');
    expect([...card.querySelectorAll('.mcp-sampling-message pre')].map((p) => p.textContent)).toEqual(['Earlier', 'Noted.']);
    const edit = app!.byTestId('mcp-sampling-edit') as HTMLTextAreaElement;
    expect(edit.value).toBe('Summarize: the report');
    await enter(edit, 'Summarize: the report, in two lines');
    expect(app!.byTestId('mcp-accept').textContent).toBe('Run');
    expect(app!.byTestId('mcp-decline').textContent).toBe('Reject');
    expect(app!.queryByTestId('mcp-cancel')).toBeNull();
    await click(app!.byTestId('mcp-accept'));
    await settle();
    expect(answers).toEqual([{ action: 'accept', text: 'Summarize: the report, in two lines' }]);

    await act(async () => {
      app!.host.emit('mcpRequest', { messageId: 'a1', part: { ...sampling, state: 'accepted', usage: { inputTokens: 50, outputTokens: 5 } } });
    });
    await settle();
    expect(app!.byTestId('mcp-request-state').textContent).toBe('ran');
    expect(app!.byTestId('mcp-request').querySelector('[data-testid="message-usage"]')?.getAttribute('data-input')).toBe('50');
  });

  it('Reject sends decline', async () => {
    const answers = await mount(sampling);
    await click(app!.byTestId('mcp-decline'));
    await settle();
    expect(answers).toEqual([{ action: 'decline' }]);
  });
});
