import { useEffect, useState } from 'react';
import type { SlashEntry } from '../../../src/protocol/hostMethods';
import { useBridge } from '../../bridge/bridgeContext';
import type { SlashCommandInfo } from './slashCommands';

/**
 * The person's command files and skills (`/name`), asked of the host each time a `/` starts the
 * draft, so a file added a moment ago is offered. Empty until the first answer.
 */
export function useSetupCommands(typingSlash: boolean): readonly SlashEntry[] {
  const bridge = useBridge();
  const [entries, setEntries] = useState<readonly SlashEntry[]>([]);
  useEffect(() => {
    if (!typingSlash) return undefined;
    let live = true;
    void bridge.call('setup.slashCommands', {}).then((result) => {
      if (live && result) setEntries(result.commands);
    });
    return () => {
      live = false;
    };
  }, [typingSlash, bridge]);
  return entries;
}

/** Popup entries for command files and skills while the command word is typed. */
export function setupCompletions(text: string, entries: readonly SlashEntry[]): SlashCommandInfo[] {
  const match = /^\/([\w:.-]*)$/.exec(text);
  if (!match) return [];
  const prefix = (match[1] ?? '').toLowerCase();
  return entries.filter((e) => e.name.toLowerCase().startsWith(prefix)).map((e) => ({ name: e.name, description: e.description || e.source, setup: e.kind }));
}

/** The command file or skill `text` runs (`/name`, then arguments), if it names one. */
export function setupCommandOf(text: string, entries: readonly SlashEntry[]): SlashEntry | undefined {
  const match = /^\/(\S+)(?:\s|$)/.exec(text.trim());
  return match ? entries.find((e) => e.name === match[1]) : undefined;
}
