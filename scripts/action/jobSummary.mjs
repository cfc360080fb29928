// Turns a `keel run --output stream-json` transcript into the Markdown a CI job shows as its
// summary: what was asked, how it ended, what the agent did and which files changed.

/** Parses stream-json text; a line that is not JSON is kept as a note instead of failing the summary. */
export function parseStream(text) {
  const events = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      events.push({ type: 'unparsed', text: line });
    }
  }
  return events;
}

const escapeCell = (s) => String(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const clip = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function toolTarget(input) {
  if (!input || typeof input !== 'object') return '';
  const v = input.command ?? input.file_path ?? input.path ?? input.pattern ?? input.url ?? '';
  return typeof v === 'string' ? clip(v.split('\n')[0], 80) : '';
}

/**
 * @param {object} run
 * @param {string} run.prompt
 * @param {Array<Record<string, unknown>>} run.events  parsed stream-json
 * @param {string} run.branch
 * @param {Array<{status: string, path: string}>} run.files  from `git diff --name-status` against the base
 * @param {boolean} run.committed
 */
export function jobSummary({ prompt, events, branch, files, committed }) {
  const result = events.findLast((e) => e.type === 'result');
  const errors = events.filter((e) => e.type === 'error');
  const warnings = events.filter((e) => e.type === 'warning');
  const uses = new Map(events.filter((e) => e.type === 'tool_use').map((e) => [e.id, e]));
  const results = new Map(events.filter((e) => e.type === 'tool_result').map((e) => [e.id, e]));
  const declined = new Map(events.filter((e) => e.type === 'approval' && e.approved === false).map((e) => [e.id, e]));

  const status = result ? (result.success ? '✅ completed' : `❌ ${result.status}`) : '❌ ended without a result';
  const out = [`## Keel: ${escapeCell(clip(prompt.split('\n')[0] || 'run', 100))}`, ''];
  out.push(`**Status:** ${status}${result ? ` in ${result.turns} turn(s), ${result.usage?.inputTokens ?? 0} in / ${result.usage?.outputTokens ?? 0} out tokens` : ''}`);
  if (result?.sessionId) out.push(`**Session:** \`${result.sessionId}\``);
  out.push(committed ? `**Branch:** \`${branch}\` (${files.length} file(s) changed)` : `**Branch:** \`${branch}\` (no changes, nothing committed)`);
  out.push('');
  for (const e of errors) out.push(`> **Error** (${e.code}): ${escapeCell(e.message)}`, '');
  for (const w of warnings) out.push(`> **Warning:** ${escapeCell(w.message)}`, '');

  out.push('<details><summary>Task</summary>', '', prompt.split('\n').map((l) => `> ${l}`).join('\n'), '', '</details>', '');
  if (result?.text) out.push('### Answer', '', String(result.text), '');

  if (files.length) {
    out.push('### Files changed', '', '| | File |', '|---|---|');
    const kinds = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed' };
    for (const f of files) out.push(`| ${kinds[f.status[0]] ?? f.status} | \`${escapeCell(f.path)}\` |`);
    out.push('');
  }
  if (uses.size) {
    out.push('### Tool calls', '', '| Tool | Target | Outcome |', '|---|---|---|');
    for (const [id, use] of uses) {
      const r = results.get(id);
      const d = declined.get(id);
      const outcome = d ? `declined: ${clip(String(d.reason ?? ''), 60)}` : r ? (r.isError ? 'error' : 'ok') : 'no result';
      out.push(`| ${escapeCell(use.name)} | ${escapeCell(toolTarget(use.input))} | ${escapeCell(outcome)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
