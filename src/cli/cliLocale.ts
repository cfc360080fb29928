import * as l10n from '@vscode/l10n';
import zhCn from '../../l10n/bundle.l10n.zh-cn.json';

/** The catalogues the CLI carries, by language; English is the keys themselves. */
const bundles: Record<string, Record<string, string>> = { 'zh-cn': zhCn };

/**
 * The language of the CLI's human-readable output, from the POSIX locale variables in their
 * order of precedence (LC_ALL, LC_MESSAGES, LANG): `zh_CN.UTF-8` → `zh-cn`. Traditional
 * Chinese locales are not Simplified Chinese readers' settings, so they stay English.
 */
export function cliLanguage(env: NodeJS.ProcessEnv): string {
  const raw = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '') ?? '';
  const tag = raw.split(/[.@]/)[0]!.replace(/_/g, '-').toLowerCase();
  if (tag === '' || tag === 'c' || tag === 'posix') return 'en';
  if (tag === 'zh' || tag === 'zh-cn' || tag === 'zh-sg' || tag.startsWith('zh-hans')) return 'zh-cn';
  return tag;
}

/** The language to name to the model: only one the environment states (not C/POSIX, not unset). */
export function statedLanguage(env: NodeJS.ProcessEnv): string | undefined {
  const stated = [env.LC_ALL, env.LC_MESSAGES, env.LANG].some((v) => v !== undefined && v !== '' && v !== 'C' && v !== 'POSIX' && !v.startsWith('C.'));
  return stated ? cliLanguage(env) : undefined;
}

/** Points `l10n.t` at the catalogue for the environment's language; returns that language. */
export function applyCliLocale(env: NodeJS.ProcessEnv): string {
  const language = cliLanguage(env);
  l10n.config({ contents: bundles[language] ?? {} });
  return language;
}
