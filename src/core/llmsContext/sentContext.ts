import type { MessageMeta } from '../session/sessionRecords';
import { sha256 } from '../sha256';
import type { GatheredContext } from './contextTypes';
import { contextHeader, updateHeader } from './contextBlock';
import { renderSections } from './renderContext';


export interface ContextUpdate {
  /** The text part for the user message; '' when nothing changed. */
  text: string;
  /** For the message's meta: what it showed, so the next message can show only what differs. */
  shown: Record<string, string>;
}

/**
 * What the model has been shown of the workspace context in the messages it will be sent
 * (the active branch after the compaction in force), read from those messages' meta. Read
 * from the history, not remembered: a fork, a compaction or a resume changes what was shown.
 */
export function shownContext(messages: readonly { meta?: MessageMeta }[]): Map<string, string> {
  const shown = new Map<string, string>();
  for (const m of messages) {
    for (const [id, hash] of Object.entries(m.meta?.context ?? {})) {
      if (hash === '') shown.delete(id);
      else shown.set(id, hash);
    }
  }
  return shown;
}

/**
 * The workspace context for the next user message: every section when none was shown yet,
 * else only those whose text changed or that are gone. So what changes between messages
 * (git status, open editors, the date) rides with the new message instead of the system
 * prompt, and each request starts with the whole previous one: a provider's prompt cache
 * keeps the prefix.
 */
export function contextUpdate(gathered: GatheredContext, before: ReadonlyMap<string, string>): ContextUpdate {
  const live = gathered.sections.filter((s) => s.text.trim() !== '');
  const changed = live.filter((s) => before.get(s.id) !== hashOf(s.text));
  const gone = [...before.keys()].filter((id) => !live.some((s) => s.id === id));
  const shown: Record<string, string> = {};
  for (const s of changed) shown[s.id] = hashOf(s.text);
  for (const id of gone) shown[id] = '';
  if (changed.length === 0 && gone.length === 0) return { text: '', shown };
  const blocks = renderSections([...changed, ...gone.map((id) => ({ id, title: id.replace(/^plugin:/, ''), text: '(no longer in effect)' }))]);
  return { text: [before.size === 0 ? contextHeader : updateHeader, ...blocks].join('\n'), shown };
}

function hashOf(text: string): string {
  return sha256(text).slice(0, 16);
}
