// Keel's string catalogue, kept by @vscode/l10n-dev's extractor rather than by hand.
//
//   node scripts/l10n.mjs          rewrite l10n/bundle.l10n.json and l10n/webviewKeys.json from the
//                                  sources, and list the zh-CN translations that are missing
//   node scripts/l10n.mjs --check  write nothing; exit 1 if either file is stale or a translation is missing
//
// Every `vscode.l10n.t('…')` (src/vscode) and `l10n.t('…')` from '@vscode/l10n' (src/chat, src/core,
// src/cli, webview/) is a key; its English text is the key itself. webviewKeys.json is the part the
// chat page uses: the host hands the page only those (src/vscode/webviewLocale.ts).
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
  console.log(`${all.length} strings (${webview.length} in the chat page); ${missing} translations missing`);
  if (check && (stale || missing > 0 || dynamicCalls().length > 0)) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
