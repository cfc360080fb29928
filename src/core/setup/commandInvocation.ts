import type { UserInput } from '../projectTypes';
import { expandCommand } from './commandFiles';
import type { CommandFile } from './commandFiles';

export interface InvokedCommand {
  file: CommandFile;
  /** The expanded prompt, as Keel attaches it to the person's message. */
  text: string;
}

/**
 * When the person's message is `/<command> args` and a command file has that name: the file
 * and its prompt with the arguments filled in. Undefined for any other message.
 */
export async function invokedCommand(input: UserInput, files: () => Promise<readonly CommandFile[]>): Promise<InvokedCommand | undefined> {
  if (typeof input !== 'string') return undefined;
  const match = /^\/([a-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/i.exec(input.trim());
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  const file = (await files()).find((f) => f.name === name);
  if (!file) return undefined;
  const prompt = expandCommand(file.body, (match[2] ?? '').trim());
  return { file, text: `The person ran the command /${file.name} (from ${file.display}). Its prompt, which is their request:\n<command name="${file.name}">\n${prompt}\n</command>` };
}
