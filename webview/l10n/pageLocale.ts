import * as l10n from '@vscode/l10n';
import { pageLocaleSchema } from '../../src/protocol/locale';
import { LOCALE_ELEMENT_ID } from '../../src/protocol/localeElement';

/**
 * Reads the locale the host put in the page and points `l10n.t` at its strings, before the
 * first render. A page without one (or with a malformed one) speaks English and says so in
 * the log, rather than failing to render.
 */
export function applyPageLocale(doc: Document, log: (message: string) => void): string {
  const element = doc.getElementById(LOCALE_ELEMENT_ID);
  if (!element?.textContent) {
    log('the page carries no locale; showing English');
    return 'en';
  }
  let raw: unknown;
  try {
    raw = JSON.parse(element.textContent);
  } catch (err) {
    log(`the page's locale is not JSON (${String(err)}); showing English`);
    return 'en';
  }
  const parsed = pageLocaleSchema.safeParse(raw);
  if (!parsed.success) {
    log(`the page's locale does not match the protocol (${parsed.error.message}); showing English`);
    return 'en';
  }
  l10n.config({ contents: parsed.data.strings });
  return parsed.data.language;
}
