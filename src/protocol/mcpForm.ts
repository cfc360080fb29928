import type { McpFieldValue, McpFormField } from './mcpRequests';

/** What the person has put in a field so far: text (text and numbers), a tick, a choice, the choices ticked. */
export type McpDraftValue = string | boolean | string[];

/**
 * Why a field's value cannot be sent: left empty though required, not a number, not a whole
 * number, not one of the choices, shorter or longer than the server allows (text), below or
 * above its range (numbers), not in the form asked (an email address, a URI, a date, a time).
 */
export type McpFieldProblem = 'required' | 'number' | 'integer' | 'choice' | 'tooShort' | 'tooLong' | 'tooSmall' | 'tooLarge' | 'format';

/** The form as it opens: each field holds its default (a yes/no field without one is unticked). */
export function initialDraft(fields: readonly McpFormField[]): Record<string, McpDraftValue> {
  const draft: Record<string, McpDraftValue> = {};
  for (const field of fields) {
    const d = field.default;
    if (field.kind === 'boolean') draft[field.name] = d === true;
    else if (field.kind === 'choices') draft[field.name] = Array.isArray(d) ? [...d] : [];
    else draft[field.name] = d === undefined || Array.isArray(d) ? '' : String(d);
  }
  return draft;
}

/**
 * The form's answer, checked field by field before it goes to the server: numbers as numbers,
 * choices among the options, required fields filled in. An optional field left empty is left
 * out (the server's default then applies). Every problem is reported, by field name.
 */
export function readForm(
  fields: readonly McpFormField[],
  draft: Readonly<Record<string, McpDraftValue | undefined>>,
): { content: Record<string, McpFieldValue> } | { problems: Record<string, McpFieldProblem> } {
  const content: Record<string, McpFieldValue> = {};
  const problems: Record<string, McpFieldProblem> = {};
  for (const field of fields) {
    const read = readField(field, draft[field.name]);
    if (read === undefined) continue;
    if ('problem' in read) problems[field.name] = read.problem;
    else content[field.name] = read.value;
  }
  return Object.keys(problems).length ? { problems } : { content };
}

function readField(field: McpFormField, value: McpDraftValue | undefined): { value: McpFieldValue } | { problem: McpFieldProblem } | undefined {
  if (field.kind === 'boolean') return { value: value === true };
  if (field.kind === 'choices') {
    const picked = Array.isArray(value) ? value : [];
    if (picked.length === 0) return field.required ? { problem: 'required' } : undefined;
    const known = new Set((field.options ?? []).map((o) => o.value));
    return picked.every((p) => known.has(p)) ? { value: [...picked] } : { problem: 'choice' };
  }
  const text = typeof value === 'string' ? value : '';
  if (text.trim() === '') return field.required ? { problem: 'required' } : undefined;
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return { problem: 'number' };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { problem: 'integer' };
      if (field.min !== undefined && n < field.min) return { problem: 'tooSmall' };
      if (field.max !== undefined && n > field.max) return { problem: 'tooLarge' };
      return { value: n };
    }
    case 'choice':
      return (field.options ?? []).some((o) => o.value === text) ? { value: text } : { problem: 'choice' };
    case 'text':
      if (field.min !== undefined && text.length < field.min) return { problem: 'tooShort' };
      if (field.max !== undefined && text.length > field.max) return { problem: 'tooLong' };
      if (field.format && !inFormat(text, field.format)) return { problem: 'format' };
      return { value: text };
  }
}

/** Whether `text` is in the form JSON Schema names (what the server checks the answer against). */
function inFormat(text: string, format: NonNullable<McpFormField['format']>): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text) && !Number.isNaN(Date.parse(text));
  }
}
