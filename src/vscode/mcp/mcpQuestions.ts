import * as vscode from 'vscode';
import { formFields, readFieldValue } from '../../core/mcp';
import type { ElicitField, ElicitQuestion, Elicitor } from '../../core/mcp';

type Content = Record<string, string | number | boolean | string[]>;
type Answer = { action: 'accept'; content?: Content } | { action: 'decline' } | { action: 'cancel' };

/**
 * Answers MCP servers' questions (elicitation) with VS Code's own prompts when no chat view can
 * show them as a card (see McpCards and McpHub), one question at a time: a notification says which server asks what; "Answer…" walks through the form's fields
 * (pickers for yes/no and choices, input boxes with the defaults filled in and checked as typed);
 * a page to open is opened only when the person clicks Open. Escape cancels.
 */
export function vscodeElicitor(): Elicitor {
  let queue: Promise<unknown> = Promise.resolve();
  return (server, question, signal) => {
    const turn = queue.then(() => (signal.aborted ? ({ action: 'cancel' } as const) : ask(server, question)));
    queue = turn.catch(() => undefined);
    return turn;
  };
}

async function ask(server: string, question: ElicitQuestion): Promise<Answer> {
  const decline = vscode.l10n.t('Decline');
  if (question.mode === 'url') {
    const open = vscode.l10n.t('Open');
    const url = question.params.url;
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('MCP server "{0}" asks you to open {1}: {2}', server, url, question.params.message), open, decline);
    if (choice !== open) return { action: choice === decline ? 'decline' : 'cancel' };
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
    return { action: 'accept' };
  }
  const answer = vscode.l10n.t('Answer…');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('MCP server "{0}" asks: {1}', server, question.params.message), answer, decline);
  if (choice !== answer) return { action: choice === decline ? 'decline' : 'cancel' };
  const content: Content = {};
  const fields = formFields(question.params);
  for (const [index, field] of fields.entries()) {
    const title = `${server}: ${field.label}${field.required ? '' : ` ${vscode.l10n.t('(optional)')}`} (${index + 1}/${fields.length})`;
    const value = await askField(field, title);
    if (value === undefined) return { action: 'cancel' };
    if (value !== null) content[field.name] = value;
  }
  return { action: 'accept', content };
}

/** The field's value; null when left empty (its default then applies), undefined when the person pressed Escape. */
async function askField(field: ElicitField, title: string): Promise<string | number | boolean | string[] | null | undefined> {
  const placeHolder = field.description;
  if (field.kind === 'boolean') {
    const yes = vscode.l10n.t('Yes');
    const no = vscode.l10n.t('No');
    const items = field.default === false ? [no, yes] : [yes, no];
    const picked = await vscode.window.showQuickPick(items, { title, ...(placeHolder ? { placeHolder } : {}), ignoreFocusOut: true });
    return picked === undefined ? undefined : picked === yes;
  }
  if (field.kind === 'choice' || field.kind === 'choices') {
    const items = (field.options ?? []).map((o) => ({ label: o.label, description: o.label === o.value ? undefined : o.value, value: o.value, picked: Array.isArray(field.default) ? field.default.includes(o.value) : field.default === o.value }));
    if (field.kind === 'choices') {
      const picked = await vscode.window.showQuickPick(items, { title, ...(placeHolder ? { placeHolder } : {}), canPickMany: true, ignoreFocusOut: true });
      return picked === undefined ? undefined : picked.map((p) => p.value);
    }
    const sorted = [...items.filter((i) => i.picked), ...items.filter((i) => !i.picked)];
    const picked = await vscode.window.showQuickPick(sorted, { title, ...(placeHolder ? { placeHolder } : {}), ignoreFocusOut: true });
    return picked === undefined ? undefined : picked.value;
  }
  const typed = await vscode.window.showInputBox({
    title,
    ...(field.description ? { prompt: field.description } : {}),
    ...(field.default !== undefined ? { value: String(field.default) } : {}),
    ignoreFocusOut: true,
    validateInput: (text) => {
      if (text.trim() === '') return field.required && field.default === undefined ? vscode.l10n.t('{0} is required', field.label) : undefined;
      const read = readFieldValue(field, text);
      return 'problem' in read ? read.problem : undefined;
    },
  });
  if (typed === undefined) return undefined;
  if (typed.trim() === '') return null;
  const read = readFieldValue(field, typed);
  return 'value' in read ? read.value : null;
}
