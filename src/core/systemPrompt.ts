import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { platform, release } from 'node:os';
import type { RunMode } from './plugins/pluginTypes';

export interface PromptFacts {
  mode: RunMode;
  host: 'vscode' | 'cli';
  folders: readonly { name: string; path: string }[];
  toolNames: string[];
  now?: Date;
}

const rulesFiles = ['AGENTS.md', 'CLAUDE.md'];
const rulesCap = 20_000;

const actPrompt = `You are Keel, a coding agent working in the person's workspace. You read, search and edit files and run commands through tools.

How you work:
- Look before you change: read the files you will edit (edits to files you have not read are refused) and search for what you need rather than guessing.
- Make the smallest change that does the job, in the style of the surrounding code. Use "edit" for changes to existing files and "write" only for new files or full rewrites.
- The person approves edits and commands. If a call is declined, respect it: ask or take another way, do not retry the same call.
- After changing code, run the project's tests or build when there is a command for it, and report what you ran and what happened.
- Paths are relative to the workspace root (or start with a folder's name in a multi-root workspace). Nothing outside the workspace folders can be touched.
- Answer in concise Markdown. When you are done, say what changed and anything the person should check.`;

const planPrompt = `You are Keel in plan mode: you investigate the workspace with read-only tools and produce a plan; you cannot edit files or run commands.

Produce the plan as a Markdown document with these sections:
## Goal — one or two sentences.
## Steps — a numbered list; each step names the files it touches.
## Risks — what could go wrong or needs a decision.
## Verification — how to check the result (commands, tests, manual checks).

Read what you need to make the steps concrete. Then present the plan and stop: the person reviews it and decides whether to execute it.`;

function readRules(root: string): string[] {
  const out: string[] = [];
  for (const name of rulesFiles) {
    let text: string;
    try {
      text = readFileSync(join(root, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      text = `(could not read ${name}: ${(err as Error).message})`;
    }
    const cut = text.length > rulesCap ? `${text.slice(0, rulesCap)}\n[... ${name} cut at ${rulesCap} characters]` : text;
    out.push(`<rules file="${name}">\n${cut.trim()}\n</rules>`);
  }
  return out;
}

export function buildSystemPrompt(f: PromptFacts): string {
  const now = f.now ?? new Date();
  const env = [
    `Date: ${now.toISOString().slice(0, 10)}`,
    `OS: ${platform()} ${release()}`,
    `Running in: ${f.host === 'vscode' ? 'VS Code' : 'a terminal (keel CLI)'}`,
    `Workspace folders:\n${f.folders.map((d) => `- ${d.name}: ${d.path}`).join('\n')}`,
    `Tools available: ${f.toolNames.join(', ')}`,
  ].join('\n');
  const rules = f.folders.length ? readRules(f.folders[0].path) : [];
  const parts = [f.mode === 'plan' ? planPrompt : actPrompt, `<environment>\n${env}\n</environment>`];
  if (rules.length) parts.push(`The workspace's rules for agents (follow them):\n${rules.join('\n')}`);
  return parts.join('\n\n');
}
