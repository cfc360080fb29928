import * as l10n from '@vscode/l10n';
import type { McpResourceView } from '../../../src/protocol/mcpStatus';
import type { Mention } from '../../../src/protocol/uiMessage';
import type { FileHit } from './useFileSearch';

/** One entry of the @-popup. */
export interface MentionChoice {
  key: string;
  icon: string;
  label: string;
  detail?: string;
  /** The chip it adds; absent for the @url entry, which only starts the address. */
  mention?: Mention;
  /** What replaces the @-query, without the '@'. */
  insert: string;
}

interface Keyword {
  name: 'problems' | 'selection' | 'git' | 'terminal';
  icon: string;
  detail: string;
}

// Details are getters: the page's locale is applied after the modules load.
const KEYWORDS: readonly Keyword[] = [
  { name: 'problems', icon: 'warning', get detail() { return l10n.t('Every problem in the workspace'); } },
  { name: 'selection', icon: 'selection', get detail() { return l10n.t("The active editor's selection"); } },
  { name: 'git', icon: 'git-compare', get detail() { return l10n.t('Uncommitted changes (diff against HEAD)'); } },
  { name: 'terminal', icon: 'terminal', get detail() { return l10n.t("The last command in Keel's terminal and its output"); } },
];

const URL_START = 'https://';

/**
 * The non-file entries for an @-query: the keywords it is a prefix of, `@url` (which leaves
 * `@https://` to type the address after), and the typed address itself once it is one.
 */
export function contextChoices(query: string): MentionChoice[] {
  if (isWebAddress(query)) {
    return [{ key: `url:${query}`, icon: 'globe', label: query, detail: l10n.t('Fetch this page (asks first)'), mention: { kind: 'url', url: query }, insert: query }];
  }
  const q = query.toLowerCase();
  const choices: MentionChoice[] = KEYWORDS.filter((k) => k.name.startsWith(q)).map((k) => ({
    key: k.name,
    icon: k.icon,
    label: `@${k.name}`,
    detail: k.detail,
    mention: { kind: k.name },
    insert: k.name,
  }));
  if ('url'.startsWith(q)) {
    choices.push({ key: 'url', icon: 'globe', label: '@url <address>', detail: l10n.t('A web page (asks before fetching)'), insert: URL_START });
  }
  return choices;
}

/** Most MCP resources the @-menu lists for one query. */
const RESOURCE_CHOICES = 8;

/**
 * MCP resources whose server, name or URI holds the @-query (all of them for a bare '@' would
 * crowd out the files: a query of at least one character is needed). Each is inserted as
 * `@server:uri`, the spelling the host reads in a message's text too.
 */
export function resourceChoices(query: string, resources: readonly McpResourceView[]): MentionChoice[] {
  if (query === '') return [];
  const q = query.toLowerCase();
  const hit = (r: McpResourceView) => `${r.server}:${r.uri}`.toLowerCase().includes(q) || r.name.toLowerCase().includes(q);
  return resources
    .filter(hit)
    .slice(0, RESOURCE_CHOICES)
    .map((r) => ({
      key: `resource:${r.server}:${r.uri}`,
      icon: 'database',
      label: `@${r.server}:${r.name || r.uri}`,
      detail: r.description ? `${r.uri} · ${r.description}` : r.uri,
      mention: { kind: 'resource', server: r.server, uri: r.uri },
      insert: `${r.server}:${r.uri}`,
    }));
}

export function fileChoice(hit: FileHit): MentionChoice {
  return { key: `${hit.kind}:${hit.path}`, icon: hit.kind === 'file' ? 'file' : 'folder', label: hit.path, mention: hit, insert: hit.path };
}

/** Two mentions that name the same thing (a chip is added once). */
export function sameMention(a: Mention, b: Mention): boolean {
  return mentionKey(a) === mentionKey(b);
}

function mentionKey(m: Mention): string {
  switch (m.kind) {
    case 'file':
    case 'folder':
      return `path:${m.path}`;
    case 'url':
      return `url:${m.url}`;
    case 'git':
      return m.base ? `git:${m.base}` : 'git';
    case 'resource':
      return `resource:${m.server}:${m.uri}`;
    default:
      return m.kind;
  }
}

/** An http(s) address with a host, as the protocol accepts it. */
function isWebAddress(text: string): boolean {
  if (!/^https?:\/\/[^/\s]+\.[^/\s]/i.test(text) || !URL.canParse(text)) return false;
  return new URL(text).hostname !== '';
}
