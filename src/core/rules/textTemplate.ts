import { ExpressionError } from './expressionError';
import { evaluate } from './expressionEval';
import type { Scope, Value } from './expressionEval';
import { parseExpression } from './expressionParser';
import type { Expr } from './expressionParser';

/** A rule's text with `{{ expression }}` holes, parsed once when the rule loads. */
export type Template = ReadonlyArray<string | Expr>;

export function parseTemplate(text: string): Template {
  const out: Array<string | Expr> = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      out.push(text.slice(i));
      break;
    }
    if (open > i) out.push(text.slice(i, open));
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new ExpressionError(`"{{" is not closed by "}}"`, open + 1);
    out.push(parseExpression(text.slice(open + 2, close), open + 2));
    i = close + 2;
  }
  return out;
}

export function renderTemplate(template: Template, scope: Scope): string {
  return template.map((piece) => (typeof piece === 'string' ? piece : show(evaluate(piece, scope)))).join('');
}

function show(v: Value): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(show).join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
