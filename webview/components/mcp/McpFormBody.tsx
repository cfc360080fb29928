import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import { initialDraft, readForm } from '../../../src/protocol/mcpForm';
import type { McpDraftValue, McpFieldProblem } from '../../../src/protocol/mcpForm';
import type { McpFormField, McpRequestPart } from '../../../src/protocol/mcpRequests';
import { AnswerButtons, GoneNote } from './McpAnswerButtons';
import { useMcpAnswer } from './useMcpAnswer';

function problemText(problem: McpFieldProblem, field: McpFormField): string {
  switch (problem) {
    case 'required':
      return l10n.t('{0} is required', field.label);
    case 'number':
      return l10n.t('{0} must be a number', field.label);
    case 'integer':
      return l10n.t('{0} must be a whole number', field.label);
    case 'choice':
      return l10n.t('Choose one of the options for {0}', field.label);
    case 'tooShort':
      return l10n.t('{0} needs at least {1} characters', field.label, field.min ?? 0);
    case 'tooLong':
      return l10n.t('{0} takes at most {1} characters', field.label, field.max ?? 0);
    case 'tooSmall':
      return l10n.t('{0} must be at least {1}', field.label, field.min ?? 0);
    case 'tooLarge':
      return l10n.t('{0} must be at most {1}', field.label, field.max ?? 0);
    case 'format':
      return l10n.t('{0} must be {1}', field.label, formatHint(field.format));
  }
}

/** What a text field in a given form expects, as its placeholder and in its problem. */
function formatHint(format: McpFormField['format']): string {
  switch (format) {
    case 'email':
      return l10n.t('an email address');
    case 'uri':
      return l10n.t('a URI, such as https://example.com');
    case 'date':
      return l10n.t('a date, such as 2026-01-31');
    case 'date-time':
      return l10n.t('a date and time, such as 2026-01-31T09:30:00Z');
    case undefined:
      return '';
  }
}

function placeholderOf(field: McpFormField): string | undefined {
  if (field.kind === 'integer') return l10n.t('a whole number');
  if (field.kind === 'number') return l10n.t('a number');
  return field.format ? formatHint(field.format) : undefined;
}

/**
 * The server's form: each field with its type, default and whether it is required. Accept
 * checks every field first and says what is wrong next to it; nothing goes to the server until
 * the form reads right.
 */
export function McpFormBody({ part, fields, message }: { part: McpRequestPart; fields: readonly McpFormField[]; message: string }) {
  const { send, sent, gone } = useMcpAnswer(part.requestId);
  const [draft, setDraft] = useState<Record<string, McpDraftValue>>(() => initialDraft(fields));
  const [problems, setProblems] = useState<Record<string, McpFieldProblem>>({});
  const open = part.state === 'open' && !gone;
  const set = (name: string, value: McpDraftValue): void => {
    setDraft((d) => ({ ...d, [name]: value }));
    setProblems(({ [name]: _fixed, ...rest }) => rest);
  };
  const accept = (): void => {
    const read = readForm(fields, draft);
    if ('problems' in read) setProblems(read.problems);
    else send({ action: 'accept', content: read.content });
  };
  return (
    <>
      <p className="mcp-card-message">{message}</p>
      {open ? (
        <form
          className="mcp-form"
          onSubmit={(event) => {
            event.preventDefault();
            accept();
          }}
        >
          {fields.map((field) => (
            <FieldRow key={field.name} field={field} value={draft[field.name]} problem={problems[field.name]} onChange={(v) => set(field.name, v)} disabled={sent} />
          ))}
          <AnswerButtons
            accept={{ label: l10n.t('Accept'), title: l10n.t('Send these values to the server'), run: accept }}
            decline={{ label: l10n.t('Decline'), title: l10n.t('Say no to the server'), run: () => send({ action: 'decline' }) }}
            cancel={() => send({ action: 'cancel' })}
            disabled={sent}
          />
        </form>
      ) : null}
      {gone ? <GoneNote /> : null}
    </>
  );
}

function FieldRow({
  field,
  value,
  problem,
  onChange,
  disabled,
}: {
  field: McpFormField;
  value: McpDraftValue | undefined;
  problem: McpFieldProblem | undefined;
  onChange(value: McpDraftValue): void;
  disabled: boolean;
}) {
  const id = `mcp-field-${field.name}`;
  const label = (
    <span className="mcp-field-label">
      {field.label}
      {field.required ? (
        <span className="mcp-field-required" title={l10n.t('Required')} aria-label={l10n.t('Required')}>
          {' *'}
        </span>
      ) : null}
    </span>
  );
  return (
    <div className="mcp-field" data-testid={id} data-invalid={problem ? 'true' : undefined}>
      {field.kind === 'boolean' ? (
        <label className="mcp-field-check">
          <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
          {label}
        </label>
      ) : field.kind === 'choices' ? (
        <fieldset className="mcp-field-choices">
          <legend>{label}</legend>
          {(field.options ?? []).map((option) => {
            const picked = Array.isArray(value) ? value : [];
            return (
              <label key={option.value} className="mcp-field-check">
                <input
                  type="checkbox"
                  checked={picked.includes(option.value)}
                  disabled={disabled}
                  onChange={(e) => onChange(e.target.checked ? [...picked, option.value] : picked.filter((p) => p !== option.value))}
                />
                {option.label}
              </label>
            );
          })}
        </fieldset>
      ) : (
        <label className="mcp-field-input">
          {label}
          {field.kind === 'choice' ? (
            <select value={typeof value === 'string' ? value : ''} disabled={disabled} onChange={(e) => onChange(e.target.value)} aria-invalid={problem !== undefined}>
              <option value="">{l10n.t('Choose…')}</option>
              {(field.options ?? []).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              type="text"
              inputMode={field.kind === 'text' ? 'text' : field.kind === 'integer' ? 'numeric' : 'decimal'}
              value={typeof value === 'string' ? value : ''}
              disabled={disabled}
              onChange={(e) => onChange(e.target.value)}
              aria-invalid={problem !== undefined}
              placeholder={placeholderOf(field)}
            />
          )}
        </label>
      )}
      {field.description ? <span className="mcp-field-description">{field.description}</span> : null}
      {problem ? (
        <span className="mcp-field-problem" role="alert" data-testid={`${id}-problem`}>
          {problemText(problem, field)}
        </span>
      ) : null}
    </div>
  );
}
