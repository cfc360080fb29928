/** A front matter value: a scalar as written, or a list (`[a, b]` or `- a` lines). */
export type FrontMatterValue = string | string[];

export interface FrontMatter {
  data: Record<string, FrontMatterValue>;
  /** The text after the front matter (the whole text when there is none). */
  body: string;
}

const fence = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * The `---` front matter the other agents' files start with: `key: value` lines, flow lists
 * (`[a, 'b']`) and block lists (`- a`). Only that subset of YAML: the formats it serves
 * (rules, skills, commands, agents) use nothing else. Quotes around scalars are removed.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, '');
  const match = fence.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, FrontMatterValue> = {};
  let listKey: string | undefined;
  for (const line of match[1].split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const list = data[listKey];
      const value = unquote(item[1].trim());
      data[listKey] = Array.isArray(list) ? [...list, value] : value === '' ? [] : [value];
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key, raw] = pair;
    const value = raw.trim();
    listKey = key;
    if (value.startsWith('[') && value.endsWith(']')) {
      data[key] = splitList(value.slice(1, -1));
    } else {
      data[key] = unquote(value);
    }
  }
  return { data, body: source.slice(match[0].length) };
}

/** A value as a string ('' when absent; a list joined with commas). */
export function frontString(data: Record<string, FrontMatterValue>, key: string): string {
  const value = data[key];
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A value as a list: a list as is, a scalar split on commas (`a, b` and `"a,b"` both mean two). */
export function frontList(data: Record<string, FrontMatterValue>, key: string): string[] {
  const value = data[key];
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value.flatMap((v) => splitList(v)) : splitList(value);
  return items.filter((v) => v !== '');
}

/** `true`/`yes` (any case) as true; anything else false. */
export function frontBool(data: Record<string, FrontMatterValue>, key: string): boolean {
  return /^(true|yes)$/i.test(frontString(data, key));
}

/** Splits on commas outside `{…}`, so a glob like `*.{ts,tsx}` stays whole. */
function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((v) => unquote(v.trim())).filter((v) => v !== '');
}

function unquote(value: string): string {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1);
  }
  return value;
}
