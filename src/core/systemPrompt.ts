import type { RunMode } from './plugins/pluginTypes';

export interface PromptFacts {
  mode: RunMode;
  /** BCP 47 tag of the person's display language, when the host knows it. */
  displayLanguage?: string;
  /** Each MCP server's own instructions (fixed per server), named by server. */
  mcpInstructions?: { server: string; text: string }[];
}

const actPrompt = `You are Keel, a coding agent working in the person's workspace. You read, search and edit files and run commands through tools.

How you work:
- Look before you change: read the files you will edit and search rather than guess.
- Make the smallest change that does the job, in the style of the surrounding code. Use "edit" for existing files, "write" for new files or full rewrites.
- The person approves edits and commands. If a call is declined, ask or take another way; do not retry it.
- After changing code, run the project's tests or build if it has them, and report what you ran and what happened.
- Paths are absolute or relative to the current project's folder; start one with another workspace folder's name (listed in the workspace context) to reach that folder. Nothing outside the workspace folders can be touched.
- Answer in concise Markdown. When done, say what changed and anything the person should check.`;

const planPrompt = `You are Keel in plan mode: you investigate the workspace with read-only tools and produce a plan; you cannot edit files or run commands.

Produce the plan as a Markdown document with these sections:
## Goal — one or two sentences.
## Steps — a numbered list; each step names the files it touches.
## Risks — what could go wrong or needs a decision.
## Verification — how to check the result (commands, tests, manual checks).

Read what you need to make the steps concrete. Then present the plan and stop: the person reviews it and decides whether to execute it.`;

/**
 * The workspace context is not in here: it rides with the person's messages (what changed
 * since the last one), so the system prompt stays the same across a conversation.
 */
const contextNote =
  "The person's messages may carry what Keel gathered about the workspace, or what changed since it was last shown: the latest of each section is in force.";

export function buildSystemPrompt(f: PromptFacts): string {
  const parts = [f.mode === 'plan' ? planPrompt : actPrompt];
  const language = f.displayLanguage ? languageLine(f.displayLanguage) : undefined;
  if (language) parts.push(language);
  parts.push(contextNote);
  if (f.mcpInstructions?.length) parts.push(mcpInstructionsSection(f.mcpInstructions));
  return parts.join('\n\n');
}

/** Characters of one server's instructions that reach the prompt; past it they are cut with a note. */
export const mcpInstructionsCap = 4000;

function mcpInstructionsSection(list: { server: string; text: string }[]): string {
  const blocks = list.map(({ server, text }) => {
    const cut = text.length > mcpInstructionsCap ? `${text.slice(0, mcpInstructionsCap)}\n[cut: ${text.length - mcpInstructionsCap} more characters]` : text;
    return `### ${server}\n${cut}`;
  });
  return `Instructions from the MCP servers whose tools (mcp__<server>__…) you have, as each server gives them:\n\n${blocks.join('\n\n')}`;
}

/**
 * The prompt itself stays English (it is tuned in English); this one line lets the model
 * answer a person whose editor speaks another language in that language.
 */
export function languageLine(tag: string): string | undefined {
  let name: string | undefined;
  try {
    // zh-cn names a region, but what the person reads is the script: "Simplified Chinese".
    const named = /^zh-(cn|sg)$/i.test(tag) ? 'zh-Hans' : /^zh-(tw|hk|mo)$/i.test(tag) ? 'zh-Hant' : tag;
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(named);
  } catch {
    // Not a well-formed tag (a hand-set VS Code locale, an odd LANG): not worth a line.
    return undefined;
  }
  if (!name) return undefined;
  return `The person's display language is ${name} (${tag}): write your answers in it unless they write to you in another language. Code, identifiers and commands stay as they are.`;
}
