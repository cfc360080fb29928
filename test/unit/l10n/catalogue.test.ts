// The catalogue is complete: every string the sources translate is a key of l10n/bundle.l10n.json
// (found by @vscode/l10n-dev's own extractor, the one `node scripts/l10n.mjs` runs), the chat
// page's share is listed for the host to hand over, every key has its zh-CN entry with the same
// placeholders, and package.json shows people no text that package.nls.json does not hold.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, typed by use
import { dynamicCalls, extractCatalogue, hardCodedPageText, hardCodedStrings, pageTextWithoutL10n, shownWithoutL10n } from '../../../scripts/l10n.mjs';

const root = new URL('../../../', import.meta.url);
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as Record<string, unknown>;
const placeholders = (text: string): string[] => [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();

describe('the l10n bundle', () => {
  it('holds every string the sources translate, no stale ones, and lists the chat page\'s share', async () => {
    const { all, webview } = (await extractCatalogue()) as { all: string[]; webview: string[] };
    // A few strings this test knows are translated, so an extractor that finds nothing fails here.
    expect(all).toEqual(expect.arrayContaining(['Set API Key', 'No model is configured. {0}', 'Keel: plan mode (read-only)', 'plan saved as {0}']));
    expect(Object.keys(json('l10n/bundle.l10n.json')).sort()).toEqual(all);
    expect(json('l10n/webviewKeys.json')).toEqual(webview);
    expect(webview).toContain('Ask Keel… (@ for files, / for commands)');
    expect(webview).not.toContain('Keel: plan mode (read-only)');
  }, 120_000);

  it('has no l10n.t call the extractor cannot read (the first argument must be a literal)', () => {
    expect(dynamicCalls()).toEqual([]);
  });

  it('has no prose shown to people from src/vscode or src/chat without l10n.t (notifications, pickers, input boxes, status bar, lenses, settings problems, chat errors)', () => {
    expect(hardCodedStrings()).toEqual([]);
  });

  it('finds such prose where a person reads it, and leaves what the log or the model reads', () => {
    const shown = (code: string): string[] => (shownWithoutL10n(code) as Array<{ text: string }>).map((f) => f.text);
    expect(shown("void vscode.window.showWarningMessage('Keel could not start.');")).toEqual(['Keel could not start.']);
    expect(shown("await vscode.window.showInputBox({ title: t, placeHolder: 'e.g. Add a test' });")).toEqual(['e.g. Add a test']);
    expect(shown('problems.push(`${file}: not valid JSON (${why}).`);')).toEqual([': not valid JSON ( ).']);
    expect(shown("item.tooltip = 'Keel is working';")).toEqual(['Keel is working']);
    expect(shown("items.push({ label: running ? 'Stop the run' : 'Start a run' });")).toEqual(['Stop the run', 'Start a run']);
    expect(shown("new vscode.CodeLens(range, { title: '$(shield) Protected path', command: '' });")).toEqual(['$(shield) Protected path']);
    expect(shown("throw new BusError('internal', 'This window cannot export.');")).toEqual(['This window cannot export.']);
    expect(shown("void vscode.window.showWarningMessage(vscode.l10n.t('Keel could not start.'));")).toEqual([]);
    expect(shown("log('warn', 'the model request failed'); // title: 'not code'")).toEqual([]);
    expect(shown("const hint = { name: 'edit', label: `$(check) ${vscode.l10n.t('Accept')}` };")).toEqual([]);
  });

  it('has no text in the chat page\'s components without l10n.t (JSX text, titles, labels, placeholders)', () => {
    expect(hardCodedPageText()).toEqual([]);
  });

  it('finds the page\'s text and leaves its code and key names', () => {
    const shown = (code: string): string[] => (pageTextWithoutL10n(code) as Array<{ text: string }>).map((f) => f.text);
    expect(shown('return <p className="note">Network: asks for access.</p>;')).toEqual(['Network: asks for access.']);
    expect(shown('<span>undone</span>')).toEqual(['undone']);
    expect(shown('<RevertAction label="Undo" testId="undo" />')).toEqual(['Undo']);
    expect(shown("<button title={many ? `Put back ${n} files` : 'Put back the file'} />")).toEqual(['Put back   files', 'Put back the file']);
    expect(shown("<p>{l10n.t('Executing plan:')} <strong>{title}</strong></p>")).toEqual([]);
    expect(shown('<dt>Enter / Shift+Enter</dt>')).toEqual([]);
    expect(shown('const [step, setStep] = useState<Step>({ kind: \'idle\' }); if (a > b && c < d) run();')).toEqual([]);
  });

  it('has a zh-CN entry for every key, with the same placeholders', () => {
    const en = json('l10n/bundle.l10n.json');
    const zh = json('l10n/bundle.l10n.zh-cn.json');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) {
      const text = zh[key];
      expect(typeof text === 'string' && text.trim() !== '', `zh-cn: ${key}`).toBe(true);
      expect(placeholders(text as string), `zh-cn placeholders of ${key}`).toEqual(placeholders(key));
    }
  });
});

describe('package.json', () => {
  const pkg = json('package.json') as { contributes: Record<string, unknown> } & Record<string, unknown>;
  const nls = json('package.nls.json');
  const zh = json('package.nls.zh-cn.json');
  /** Fields VS Code shows people; brand names ("Keel") may stay as they are. */
  const shown = new Set(['title', 'name', 'description', 'markdownDescription', 'patternErrorMessage', 'markdownDeprecationMessage', 'deprecationMessage', 'enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels', 'markdown', 'label', 'category']);
  const brand = new Set(['Keel']);

  function walk(value: unknown, path: string, field: string | undefined, out: Array<{ path: string; text: string }>): void {
    if (typeof value === 'string') {
      if (field !== undefined && shown.has(field)) out.push({ path, text: value });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`, field, out));
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        // Inside a JSON schema's "properties" the keys are setting names, not fields.
        walk(v, `${path}.${k}`, path.endsWith('.properties') ? undefined : k, out);
      }
    }
  }

  it('takes every text it shows from package.nls.json', () => {
    const texts: Array<{ path: string; text: string }> = [];
    walk(pkg.contributes, 'contributes', undefined, texts);
    walk({ description: pkg.description }, '', undefined, texts);
    walk(pkg.capabilities, 'capabilities', undefined, texts);
    const raw = texts.filter(({ text }) => !/^%[\w.-]+%$/.test(text) && !brand.has(text) && !/^media\//.test(text));
    expect(raw).toEqual([]);
    // The commands, the walkthrough and the settings are among them (the walk reaches them).
    expect(texts.map((t) => t.text)).toEqual(expect.arrayContaining(['%command.plan.title%', '%walkthrough.connectModel.title%', '%config.approvalMode.markdownDescription%']));
    const used = new Set(texts.map(({ text }) => /^%([\w.-]+)%$/.exec(text)?.[1]).filter((k): k is string => k !== undefined));
    for (const key of used) expect(nls[key], `package.nls.json: ${key}`).toBeTypeOf('string');
  });

  it('has a zh-CN entry for every key of package.nls.json', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(nls).sort());
    for (const [key, text] of Object.entries(zh)) expect(typeof text === 'string' && text.trim() !== '', `zh-cn: ${key}`).toBe(true);
  });

  it('names walkthrough media that exist, in both languages', () => {
    for (const table of [nls, zh]) {
      for (const [key, file] of Object.entries(table)) {
        if (!key.endsWith('.media')) continue;
        expect(() => readFileSync(new URL(file as string, root)), `${key}: ${String(file)}`).not.toThrow();
      }
    }
  });
});
