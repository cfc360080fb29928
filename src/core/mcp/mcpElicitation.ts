import * as l10n from '@vscode/l10n';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities, ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** A server's question: a form to fill in, or a page to open (sign-in, payment) outside Keel. */
export type ElicitQuestion = { mode: 'form'; params: ElicitRequestFormParams } | { mode: 'url'; params: ElicitRequestURLParams };

/**
 * Who answers a server's question: the person (a prompt in the editor or the terminal) or the
 * CLI's policy. `server` names the server as the person configured it.
 */
export type Elicitor = (server: string, question: ElicitQuestion, signal: AbortSignal) => Promise<ElicitResult>;

/**
 * What Keel declares when someone can answer: forms (the SDK fills in the schema's defaults
 * for fields an answer leaves out, SEP-1034) and URLs.
 */
export const elicitationCapability: ClientCapabilities = { elicitation: { form: { applyDefaults: true }, url: {} } };

/** A question waits at most this long for the person; then it is cancelled. */
export const questionTimeoutMs = 10 * 60_000;

/**
 * Hands the server's `elicitation/create` requests to `elicitor`; the SDK checks the request and
 * the answer. `asking` is told a question is open and returns what to call once it is answered.
 */
export function answerElicitations(client: Client, server: string, elicitor: Elicitor, asking: () => () => void = () => () => undefined): void {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const answered = asking();
    const params = request.params;
    const question: ElicitQuestion = params.mode === 'url' ? { mode: 'url', params } : { mode: 'form', params: { ...params, mode: 'form' } };
    const signal = AbortSignal.any([extra.signal, AbortSignal.timeout(questionTimeoutMs)]);
    try {
      return await elicitor(server, question, signal);
    } catch (err) {
      // A question nobody answered in time, or whose request the server dropped, is cancelled.
      if (signal.aborted) return { action: 'cancel' };
      throw err;
    } finally {
      answered();
    }
  });
}

/** One field of a form, as a person is asked it. */
export interface ElicitField {
  name: string;
  label: string;
  description?: string;
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  /** For choice and choices: the values and what to call them. */
  options?: { value: string; label: string }[];
  default?: string | number | boolean | string[];
  /** Text: its least and most characters; numbers: the least and most value. */
  min?: number;
  max?: number;
  /** Text in a given form: an email address, a URI, a date, a date and time. */
  format?: 'email' | 'uri' | 'date' | 'date-time';
}

type Property = ElicitRequestFormParams['requestedSchema']['properties'][string];

/** The form's fields in the order the server listed them. */
export function formFields(params: ElicitRequestFormParams): ElicitField[] {
  const required = new Set(params.requestedSchema.required ?? []);
  return Object.entries(params.requestedSchema.properties).map(([name, p]) => fieldOf(name, p, required.has(name)));
}

function fieldOf(name: string, p: Property, required: boolean): ElicitField {
  const base = { name, label: p.title ?? name, required, ...(p.description ? { description: p.description } : {}) };
  if (p.type === 'boolean') return { ...base, kind: 'boolean', ...(p.default !== undefined ? { default: p.default } : {}) };
  if (p.type === 'number' || p.type === 'integer') {
    return { ...base, kind: p.type, ...bounds(p.minimum, p.maximum), ...(p.default !== undefined ? { default: p.default } : {}) };
  }
  if (p.type === 'array') {
    const items = p.items as { enum?: string[]; anyOf?: { const: string; title: string }[] };
    const options = items.anyOf ? items.anyOf.map((o) => ({ value: o.const, label: o.title })) : (items.enum ?? []).map((v) => ({ value: v, label: v }));
    return { ...base, kind: 'choices', options, ...(p.default ? { default: [...p.default] } : {}) };
  }
  if ('oneOf' in p && Array.isArray(p.oneOf)) {
    return { ...base, kind: 'choice', options: p.oneOf.map((o) => ({ value: o.const, label: o.title })), ...(p.default !== undefined ? { default: p.default } : {}) };
  }
  if ('enum' in p && Array.isArray(p.enum)) {
    const names = 'enumNames' in p && Array.isArray(p.enumNames) ? p.enumNames : undefined;
    return { ...base, kind: 'choice', options: p.enum.map((v, i) => ({ value: v, label: names?.[i] ?? v })), ...(p.default !== undefined ? { default: p.default } : {}) };
  }
  const text = p as { minLength?: number; maxLength?: number; format?: ElicitField['format'] };
  return { ...base, kind: 'text', ...bounds(text.minLength, text.maxLength), ...(text.format ? { format: text.format } : {}), ...(p.default !== undefined ? { default: p.default } : {}) };
}

function bounds(min: number | undefined, max: number | undefined): Pick<ElicitField, 'min' | 'max'> {
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/**
 * The value a person typed for `field`, or why it is not one: a number for numbers, yes/no
 * for a boolean, one of the options for a choice (by value or label), text as it is.
 */
export function readFieldValue(field: ElicitField, typed: string): { value: string | number | boolean | string[] } | { problem: string } {
  const text = typed.trim();
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return { problem: l10n.t('{0} must be a number', field.label) };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { problem: l10n.t('{0} must be a whole number', field.label) };
      return { value: n };
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return { value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { value: false };
      return { problem: l10n.t('{0}: answer yes or no', field.label) };
    case 'choice': {
      const found = field.options?.find((o) => o.value === text || o.label.toLowerCase() === text.toLowerCase());
      return found ? { value: found.value } : { problem: l10n.t('{0} must be one of {1}', field.label, (field.options ?? []).map((o) => o.value).join(', ')) };
    }
    case 'choices': {
      const picked = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
      const values: string[] = [];
      for (const p of picked) {
        const found = field.options?.find((o) => o.value === p || o.label.toLowerCase() === p.toLowerCase());
        if (!found) return { problem: l10n.t('{0} is not one of {1}', p, (field.options ?? []).map((o) => o.value).join(', ')) };
        values.push(found.value);
      }
      return { value: values };
    }
    case 'text':
      return { value: typed };
  }
}

/**
 * The answer of someone who takes every default (the CLI's `--mcp-elicitation defaults`): accept
 * when each required field has a default (the SDK then fills them in), decline a URL or a form
 * that needs something only a person could give.
 */
export function defaultsAnswer(question: ElicitQuestion): ElicitResult {
  if (question.mode === 'url') return { action: 'decline' };
  const missing = formFields(question.params).filter((f) => f.required && f.default === undefined);
  return missing.length ? { action: 'decline' } : { action: 'accept', content: {} };
}
