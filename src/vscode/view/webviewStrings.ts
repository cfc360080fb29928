import type { PageLocale } from '../../protocol/locale';

/**
 * The chat page's locale from a loaded bundle: only the strings the webview uses (`keys`, from
 * l10n/webviewKeys.json, written by `node scripts/l10n.mjs`), and none for English, whose keys
 * are the text itself.
 */
export function pickWebviewStrings(language: string, bundle: Record<string, string> | undefined, keys: readonly string[]): PageLocale {
  const strings: Record<string, string> = {};
  if (bundle) {
    for (const key of keys) {
      const text = bundle[key];
      if (typeof text === 'string' && text !== key) strings[key] = text;
    }
  }
  return { language: language.toLowerCase(), strings };
}
