// Keel's string catalogue, kept by @vscode/l10n-dev's extractor rather than by hand.
//
//   node scripts/l10n.mjs          rewrite l10n/bundle.l10n.json and l10n/webviewKeys.json from the
//                                  sources, and list the zh-CN translations that are missing
//   node scripts/l10n.mjs --check  write nothing; exit 1 if either file is stale or a translation is missing
//
// Every `vscode.l10n.t('…')` (src/vscode) and `l10n.t('…')` from '@vscode/l10n' (src/chat, src/core,
// src/cli, webview/) is a key; its English text is the key itself. webviewKeys.json is the part the
// chat page uses: the host hands the page only those (src/vscode/view/webviewLocale.ts).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const root = fileURLToPath(new URL('..', import.meta.url));
export const LANGUAGES = ['zh-cn'];

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

async function keysOf(files) {
  const contents = files.map((file) => ({ extension: extname(file), contents: readFileSync(join(root, file), 'utf8') }));
  return Object.keys(await getL10nJson(contents)).sort();
}

/** The catalogue as the sources define it: every key, and the chat page's share of them. */
export async function extractCatalogue() {
  const webview = await keysOf(sourceFiles('webview'));
  const host = await keysOf(sourceFiles('src'));
  const all = [...new Set([...host, ...webview])].sort();
  return { all, webview };
}

/** `l10n.t(x)` with anything but a literal first: the extractor cannot see it, so nobody would translate it. */
export function dynamicCalls() {
  const found = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('webview')]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/\bl10n\.t\(\s*([^\s'"`{])/g)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push(`${relative(root, join(root, file))}:${line}`);
    }
  }
  return found;
}

/**
 * String literals in the source with their code before them (comments skipped; a template's
 * text parts each count as one literal), enough to tell where a literal stands without a parser.
 */
export function stringLiterals(text) {
  const out = [];
  let code = '';
  // Open templates: where each began, its text so far, and the braces open in its current `${`.
  const templates = [];
  let i = 0;
  const body = (start, end) => {
    let read = '';
    let j = start;
    for (; j < text.length && !end(j); j++) {
      if (text[j] === '\\') read += text[++j] ?? '';
      else read += text[j];
    }
    return [read, j];
  };
  const templatePart = (start) => {
    const [read, j] = body(start, (k) => text[k] === '`' || (text[k] === '$' && text[k + 1] === '{'));
    const open = templates.at(-1);
    open.text += `${open.text ? ' ' : ''}${read}`;
    if (text[j] === '$') {
      open.braces = 0;
      return j + 2;
    }
    templates.pop();
    out.push({ text: open.text, before: open.before, at: open.at });
    // The whole template stands as one literal in the code around it, its expressions included.
    code = `${code.slice(0, open.codeLength)}S`;
    return j + 1;
  };
  while (i < text.length) {
    const c = text[i];
    const inExpression = templates.length > 0;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (c === "'" || c === '"') {
      const [read, j] = body(i + 1, (k) => text[k] === c || text[k] === '\n');
      out.push({ text: read, before: code.slice(-120), at: i });
      code += 'S';
      i = j + 1;
    } else if (c === '`') {
      templates.push({ text: '', before: code.slice(-120), at: i, braces: 0, codeLength: code.length });
      i = templatePart(i + 1);
    } else if (c === '}' && inExpression && templates.at(-1).braces === 0) {
      code += 'E';
      i = templatePart(i + 1);
    } else {
      if (inExpression && c === '{') templates.at(-1).braces++;
      if (inExpression && c === '}') templates.at(-1).braces--;
      code += c;
      i++;
    }
  }
  return out;
}

/** Two words of prose (codicons like `$(check)` aside): text a person reads, not an identifier. */
const PROSE = /[A-Za-z]{2,}[,;:.]?\s+[A-Za-z]+/;
/** Where the editor shows a literal to a person: messages, quick picks, input boxes, the status bar, lenses, the chat's errors. */
const SHOWN_AT = [
  /\.show(?:Information|Warning|Error)Message\(\s*$/,
  /\b(?:title|prompt|placeHolder|placeholder|tooltip|detail|description|label|message|text|name)\s*:\s*$/,
  // …or one side of a choice there.
  /\b(?:title|prompt|placeHolder|placeholder|tooltip|detail|description|label|message|text)\s*:[^,;{}]*\?\s*(?:S\s*:\s*)?$/,
  /\.show(?:Information|Warning|Error)Message\([^,;{}]*\?\s*(?:S\s*:\s*)?$/,
  /\.(?:text|tooltip|title|placeholder|description|prompt|detail|label|textContent)\s*=\s*$/,
  /\bproblems\.push\(\s*$/,
  /\bnew BusError\(\s*S\s*,\s*$/,
  /\bnew vscode\.(?:CodeLens|TreeItem|MarkdownString)\(\s*$/,
];

/**
 * Literals in the host's person-facing places (src/vscode, src/chat) that skip the catalogue:
 * prose given to a notification, a quick pick or input box, the status bar, a lens, a settings
 * problem or an error the chat shows, without `l10n.t`. What the model or the log reads is not
 * in those places.
 */
export function hardCodedStrings() {
  const found = [];
  for (const file of [...sourceFiles('src/vscode'), ...sourceFiles('src/chat')]) {
    for (const { line, text } of shownWithoutL10n(readFileSync(join(root, file), 'utf8'))) found.push(`${file}:${line}: ${JSON.stringify(text)}`);
  }
  return found;
}

/** The chat page's text that skips the catalogue: JSX text and the attributes a person reads or hears. */
export function hardCodedPageText() {
  const found = [];
  for (const file of sourceFiles('webview')) {
    const source = readFileSync(join(root, file), 'utf8');
    const shown = [...(file.endsWith('.tsx') ? pageTextWithoutL10n(source) : []), ...shownWithoutL10n(source)];
    for (const { line, text } of shown) found.push(`${file}:${line}: ${JSON.stringify(text)}`);
  }
  return found;
}

const PAGE_ATTRIBUTE = /\b(?:title|label|placeholder|aria-label|aria-valuetext|alt)=(?:\{?|\{[^{}]*\?\s*(?:S\s*:\s*)?)\s*$/;
/** What sits between a JSX tag and the next tag or `{` but is code, not text (a generic, a comparison). */
const NOT_TEXT = /\breturn\b|\bvoid\b|=>|\?\.| \? |\bnull\b|&&|\|\||\w\(/;
/** Key names ("Enter / Shift+Enter") read the same in every language, as in VS Code's own keybinding labels. */
const KEYS = /^(?:(?:Ctrl|Alt|Shift|Cmd|Enter|Escape|Tab|Backspace|Up|Down)[+ /]*)+$/;

export function pageTextWithoutL10n(source) {
  const found = [];
  const blank = (m) => m.replace(/[^\n]/g, ' ');
  const text = source.replace(/\{\/\*[\s\S]*?\*\/\}/g, blank).replace(/\/\*[\s\S]*?\*\//g, blank).replace(/\/\/[^\n]*/g, blank);
  for (const m of text.matchAll(/>([^<>{}=]*)(?=[<{])/g)) {
    const words = m[1].trim();
    if (!/[A-Za-z]{2,}/.test(words) || NOT_TEXT.test(words) || KEYS.test(words)) continue;
    found.push({ line: text.slice(0, m.index).split('\n').length, text: words });
  }
  for (const literal of stringLiterals(text)) {
    if (!/[A-Za-z]{2,}/.test(literal.text) || !PAGE_ATTRIBUTE.test(literal.before)) continue;
    found.push({ line: text.slice(0, literal.at).split('\n').length, text: literal.text });
  }
  return found;
}

/** The literals of one source text that stand where a person reads them and skip `l10n.t`. */
export function shownWithoutL10n(text) {
  const found = [];
  for (const literal of stringLiterals(text)) {
    if (!PROSE.test(literal.text.replace(/\$\([\w~-]+\)/g, ''))) continue;
    if (!SHOWN_AT.some((at) => at.test(literal.before))) continue;
    found.push({ line: text.slice(0, literal.at).split('\n').length, text: literal.text });
  }
  return found;
}

export function readJson(path) {
  return JSON.parse(readFileSync(join(root, path), 'utf8'));
}

async function main() {
  const check = process.argv.includes('--check');
  const { all, webview } = await extractCatalogue();
  const bundle = Object.fromEntries(all.map((key) => [key, key]));
  const wanted = { 'l10n/bundle.l10n.json': bundle, 'l10n/webviewKeys.json': webview };
  let stale = false;
  for (const [path, value] of Object.entries(wanted)) {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    if (readFileSync(join(root, path), 'utf8') === text) continue;
    stale = true;
    if (check) console.error(`${path} is out of date: run node scripts/l10n.mjs`);
    else writeFileSync(join(root, path), text);
  }
  let missing = 0;
  for (const language of LANGUAGES) {
    const translated = readJson(`l10n/bundle.l10n.${language}.json`);
    for (const key of all) {
      if (typeof translated[key] === 'string' && translated[key] !== '') continue;
      missing++;
      console.error(`${language}: missing ${JSON.stringify(key)}`);
    }
  }
  for (const at of dynamicCalls()) console.error(`${at}: l10n.t needs a string literal first`);
  const hardCoded = [...hardCodedStrings(), ...hardCodedPageText()];
  for (const at of hardCoded) console.error(`${at}: shown to people without l10n.t`);
  console.log(`${all.length} strings (${webview.length} in the chat page); ${missing} translations missing`);
  if (check && (stale || missing > 0 || dynamicCalls().length > 0 || hardCoded.length > 0)) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
