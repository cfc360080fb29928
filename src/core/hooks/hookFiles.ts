import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../errors';

/** The events Keel runs hooks for, in the vocabulary Claude Code, Copilot and Codex share. */
export const hookEvents = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'] as const;
export type HookEvent = (typeof hookEvents)[number];

/** One hook command, with where it came from. */
export interface Hook {
  event: HookEvent;
  /** Tool names it applies to (a regular expression over Claude Code's or Keel's names); empty: all. */
  matcher: string;
  command: string;
  /** Seconds; default 60. */
  timeout: number;
  /** The settings file that holds it, as the person reads it. */
  source: string;
  /** From the workspace (runs only once the person approved it) or the person's own files. */
  origin: 'person' | 'workspace';
}

const commandSchema = z.looseObject({ type: z.literal('command'), command: z.string().min(1).max(10_000), timeout: z.number().positive().max(3600).optional() });
const groupSchema = z.looseObject({ matcher: z.string().max(1000).optional(), hooks: z.array(z.unknown()).max(100) });
const fileSchema = z.looseObject({ hooks: z.record(z.string(), z.array(groupSchema).max(100)).optional() });

/** Where hooks are read: the person's files, then each workspace folder's. */
export function hookFilePlaces(opts: { keelHome: string; userHome?: string; folders: readonly string[] }): { path: string; shown: string; origin: Hook['origin'] }[] {
  const places: { path: string; shown: string; origin: Hook['origin'] }[] = [{ path: join(opts.keelHome, 'settings.json'), shown: '~/.keel/settings.json', origin: 'person' }];
  if (opts.userHome) places.push({ path: join(opts.userHome, '.claude', 'settings.json'), shown: '~/.claude/settings.json', origin: 'person' });
  for (const folder of opts.folders) {
    places.push({ path: join(folder, '.keel', 'settings.json'), shown: '.keel/settings.json', origin: 'workspace' });
    places.push({ path: join(folder, '.claude', 'settings.json'), shown: '.claude/settings.json', origin: 'workspace' });
  }
  return places;
}

/**
 * The hooks of one settings file (Claude Code's format: `hooks.<Event>[].{matcher, hooks[]}`).
 * A missing file holds none; a broken one holds none and says why in `problems`. Events Keel
 * does not run and hook types other than `command` are skipped, with a note.
 */
export async function readHookFile(place: { path: string; shown: string; origin: Hook['origin'] }, problems: string[]): Promise<Hook[]> {
  let text: string;
  try {
    text = await readFile(place.path, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return [];
    problems.push(`${place.shown}: ${errorMessage(err)}`);
    return [];
  }
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(JSON.parse(text));
  } catch (err) {
    problems.push(`${place.shown}: its hooks are ignored (${err instanceof z.ZodError ? z.prettifyError(err) : errorMessage(err)})`);
    return [];
  }
  const hooks: Hook[] = [];
  for (const [event, groups] of Object.entries(parsed.hooks ?? {})) {
    if (!(hookEvents as readonly string[]).includes(event)) {
      problems.push(`${place.shown}: Keel does not run ${event} hooks`);
      continue;
    }
    for (const group of groups) {
      for (const entry of group.hooks) {
        const command = commandSchema.safeParse(entry);
        if (!command.success) {
          problems.push(`${place.shown}: a ${event} hook that is not {"type": "command", "command": …} is skipped`);
          continue;
        }
        hooks.push({ event: event as HookEvent, matcher: group.matcher ?? '', command: command.data.command, timeout: command.data.timeout ?? 60, source: place.shown, origin: place.origin });
      }
    }
  }
  return hooks;
}

/** Claude Code's tool names for Keel's, so a matcher written for it (`Edit|Write`) matches here too. */
const otherNames: Record<string, readonly string[]> = {
  bash: ['Bash'],
  edit: ['Edit', 'MultiEdit'],
  write: ['Write'],
  read: ['Read'],
  grep: ['Grep'],
  glob: ['Glob'],
  ls: ['LS'],
  fetch: ['WebFetch'],
  todo_write: ['TodoWrite'],
  task: ['Task'],
};

/** Whether `hook` applies to the tool `name`: an empty matcher or `*` applies to all; else a whole-name regular expression. */
export function hookMatches(hook: Pick<Hook, 'matcher'>, name: string): boolean {
  const matcher = hook.matcher.trim();
  if (matcher === '' || matcher === '*') return true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    // Not a regular expression: names separated by `|`, compared as they are.
    return matcher.split('|').some((m) => [name, ...(otherNames[name] ?? [])].includes(m.trim()));
  }
  return [name, ...(otherNames[name] ?? [])].some((n) => pattern.test(n));
}
