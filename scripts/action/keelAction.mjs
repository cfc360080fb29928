#!/usr/bin/env node
// Entry of the Keel GitHub Action (action.yml): runs `keel run` on a prompt or an issue in the
// job's checkout, commits what changed to a branch of its own, pushes it when asked, and writes
// the job summary. Scheduling, secrets, retries and fan-out are the CI engine's job, not this.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jobSummary, parseStream } from './jobSummary.mjs';

const env = process.env;
const actionRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = resolve(env.GITHUB_WORKSPACE || process.cwd());

function fail(message) {
  process.stderr.write(`keel-action: ${message}\n`);
  process.exit(2);
}

/** The task: the `prompt` input, else a prompt file, else the issue that triggered the workflow. */
function readPrompt() {
  if (env.KEEL_PROMPT?.trim()) return env.KEEL_PROMPT.trim();
  if (env.KEEL_PROMPT_FILE) return readFileSync(resolve(workspace, env.KEEL_PROMPT_FILE), 'utf8').trim();
  if (env.GITHUB_EVENT_PATH && existsSync(env.GITHUB_EVENT_PATH)) {
    const issue = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')).issue;
    if (issue) return `Issue #${issue.number}: ${issue.title}\n\n${issue.body ?? ''}`.trim();
  }
  return fail('no task: set the `prompt` input, `prompt-file`, or run on an `issues` event.');
}

const git = (...args) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' }).trim();

function runKeel(prompt, transcript) {
  const cli = resolve(env.KEEL_CLI || join(actionRoot, 'dist', 'cli.js'));
  const args = ['run', '--cwd', workspace, '--output', 'stream-json', '--approval', env.KEEL_APPROVAL || 'autoEdit'];
  if (env.KEEL_SANDBOX) args.push('--sandbox', env.KEEL_SANDBOX);
  if (env.KEEL_MODEL) args.push('--model', env.KEEL_MODEL);
  if (env.KEEL_PROVIDER) args.push('--provider', env.KEEL_PROVIDER);
  if (env.KEEL_BASE_URL) args.push('--base-url', env.KEEL_BASE_URL);
  if (env.KEEL_MAX_TURNS) args.push('--max-turns', env.KEEL_MAX_TURNS);
  args.push('-');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: workspace, stdio: ['pipe', 'pipe', 'inherit'] });
    const file = createWriteStream(transcript);
    let text = '';
    child.stdout.on('data', (d) => {
      file.write(d);
      text += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => file.end(() => resolvePromise({ code: code ?? 1, text })));
    child.stdin.end(prompt);
  });
}

function changedFiles(base) {
  const out = git('diff', '--name-status', '--no-renames', `${base}..HEAD`);
  return out ? out.split('\n').map((l) => ({ status: l.split('\t')[0], path: l.split('\t').slice(1).join('\t') })) : [];
}

function output(name, value) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

async function main() {
  const prompt = readPrompt();
  const base = git('rev-parse', 'HEAD');
  const branch = env.KEEL_BRANCH || `keel/run-${env.GITHUB_RUN_ID || Date.now()}-${env.GITHUB_RUN_ATTEMPT || 1}${env.KEEL_JOB_INDEX ? `-${env.KEEL_JOB_INDEX}` : ''}`;
  git('switch', '--quiet', '-c', branch);

  const transcript = join(env.RUNNER_TEMP || mkdtempSync(join(tmpdir(), 'keel-action-')), `keel-${branch.replace(/\W+/g, '-')}.jsonl`);
  const { code, text } = await runKeel(prompt, transcript);
  const events = parseStream(text);
  const result = events.findLast((e) => e.type === 'result');

  git('add', '-A');
  let hasChanges = false;
  try {
    execFileSync('git', ['diff', '--cached', '--quiet'], { cwd: workspace, stdio: 'ignore' });
  } catch {
    hasChanges = true;
  }
  if (hasChanges) {
    const who = ['-c', `user.name=${env.KEEL_GIT_NAME || 'keel'}`, '-c', `user.email=${env.KEEL_GIT_EMAIL || 'keel@users.noreply.github.com'}`];
    const message = `keel: ${prompt.split('\n')[0].slice(0, 72)}\n\n${result?.sessionId ? `Keel session ${result.sessionId}, ` : ''}status ${result?.status ?? 'unknown'}.`;
    execFileSync('git', [...who, 'commit', '--quiet', '--no-verify', '-m', message], { cwd: workspace, stdio: 'inherit' });
  }
  const files = changedFiles(base);
  const summary = jobSummary({ prompt, events, branch, files, committed: hasChanges });
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${summary}\n`);
  else process.stdout.write(`${summary}\n`);

  output('branch', branch);
  output('changed', String(hasChanges));
  output('status', result?.status ?? 'error');
  output('session-id', result?.sessionId ?? '');
  output('transcript', transcript);

  let exit = code;
  if (hasChanges && (env.KEEL_PUSH ?? 'true') === 'true') {
    try {
      execFileSync('git', ['push', '--quiet', env.KEEL_REMOTE || 'origin', `${branch}:refs/heads/${branch}`], { cwd: workspace, stdio: 'inherit' });
    } catch {
      process.stderr.write(`keel-action: could not push ${branch}; the commit is in the job's checkout.\n`);
      exit = exit || 1;
    }
  }
  process.exit(exit);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
