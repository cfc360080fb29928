import type { ModelMessage } from 'ai';
import { messageText } from '../history/sessionHistory';

/** What the summarizer is asked to write. The agent continues from this alone, so it must be specific. */
export const summarySystemPrompt = `You summarize a conversation between a person and Keel, an AI coding agent working in the person's code workspace. The conversation is being compacted to fit the model's context window: your summary replaces the messages below, and the agent will continue the work from your summary plus the most recent messages, with no other memory of what you summarize.

Write a faithful, specific summary in Markdown with these sections (leave a section out only when there is truly nothing for it):

## Goal
What the person wants overall, and the current task, in their own words where they gave requirements.

## Decisions
Choices made and agreed on (designs, libraries, approaches rejected and why).

## Files
Every file read, created, changed or deleted, with its path and what was done to it or learned from it (key functions, types, line ranges that matter).

## Progress
What is done and verified (tests run and their results, commands and their outcomes), and what was attempted but failed, with the exact error messages that matter.

## Open tasks
What remains to do, in order, including anything the agent promised to do next.

## Person's preferences
How the person wants the work done: style, tools, things they asked the agent to do or never do, approvals they gave or refused.

## Key facts
Anything else the agent needs to continue: names, identifiers, versions, URLs, commands, values.

Rules: use exact paths, identifiers, commands and error texts; never invent anything that is not in the conversation; prefer the latest state where something changed over time; keep an earlier summary's facts unless the conversation replaced them; no preamble and no closing remarks; write for the agent, not to the person.`;

/** Characters a tool result or a long message keeps in the transcript before it is cut. */
const firstCap = 4_000;
const minCap = 300;

export interface TranscriptItem {
  message: ModelMessage;
  /** Keel stopped mid-run after this message: the note it recorded. */
  interruption?: string;
}

function heading(message: ModelMessage): string {
  switch (message.role) {
    case 'user':
      return '### Person';
    case 'assistant':
      return '### Agent';
    case 'tool':
      return '### Tool results';
    case 'system':
      return '### System';
  }
}

function cut(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap * 0.7);
  const tail = cap - head;
  return `${text.slice(0, head)}\n[… ${text.length - cap} characters left out …]\n${text.slice(text.length - tail)}`;
}

/**
 * The conversation as one text for the summarizer, within `budgetChars`: long messages are cut
 * (start and end kept) harder and harder until it fits; if even that is too long, messages from
 * the middle are left out, so the start (the task) and the end (the latest state) stay.
 */
export function buildTranscript(items: readonly TranscriptItem[], previousSummary: string | undefined, budgetChars: number): string {
  const texts = items.map((i) => {
    const body = messageText(i.message);
    return { head: heading(i.message), body, note: i.interruption };
  });
  const render = (cap: number, skipFrom = -1, skipTo = -1): string => {
    const parts: string[] = [];
    if (previousSummary !== undefined) parts.push(`### Summary of the conversation before this point\n${cut(previousSummary, Math.max(cap * 4, budgetChars / 4))}`);
    texts.forEach((t, i) => {
      if (i >= skipFrom && i < skipTo) {
        if (i === skipFrom) parts.push(`[… ${skipTo - skipFrom} messages left out here to fit the summarizer's context …]`);
        return;
      }
      parts.push(`${t.head}\n${cut(t.body, cap)}${t.note ? `\n${t.note}` : ''}`);
    });
    return parts.join('\n\n');
  };
  let cap = firstCap;
  let text = render(cap);
  while (text.length > budgetChars && cap > minCap) {
    cap = Math.max(minCap, Math.floor(cap / 2));
    text = render(cap);
  }
  // Still too long: leave out a growing middle.
  let drop = 1;
  while (text.length > budgetChars && drop < texts.length) {
    const from = Math.floor((texts.length - drop) / 2);
    text = render(cap, from, from + drop);
    drop = Math.ceil(drop * 1.5);
  }
  return text;
}

/** The one user message of the summarization request. */
export function summaryRequestText(transcript: string): string {
  return `<conversation>\n${transcript}\n</conversation>\n\nWrite the summary of the conversation above now, following the sections and rules you were given.`;
}
