// Hooks in Claude Code's settings format, as `keel run` runs them: the person's PreToolUse hook
// blocks a command before it runs (the folder it would delete is still there), a PostToolUse
// hook adds words to the tool result, a UserPromptSubmit hook adds context to the message, and
// a hook the workspace ships never runs without someone to approve it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig((box) => {
  mkdirSync(join(box.ws, 'build'));
  writeFileSync(join(box.ws, 'README.md'), '# app\n');
});

function settings(file: string, hooks: Record<string, unknown>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ hooks }, null, 2));
}

function keel(prompt: string) {
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--approval', 'yolo', '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', prompt], {
    KEEL_HOME: rig.box.home,
    HOME: rig.box.home,
  });
}

const lastRequest = () => JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
const blockDeletes = { matcher: 'Bash', hooks: [{ type: 'command', command: "if grep -q 'rm -rf'; then echo 'deleting is not allowed here' >&2; exit 2; fi" }] };

describe('hooks in keel run', () => {
  it("the person's PreToolUse hook blocks a command before it runs, and the model is told why", async () => {
    settings(join(rig.box.home, 'settings.json'), { PreToolUse: [blockDeletes] });
    rig.server.load({ turns: [reply.tool('bash', { command: 'rm -rf build' }), reply.text('Left it.', { match: { lastToolResultIncludes: 'deleting is not allowed here' } })] });
    const r = await keel('clean the build folder');
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.box.ws, 'build'))).toBe(true);
    expect(lastRequest()).toContain('A PreToolUse hook blocked this bash call; nothing was done. deleting is not allowed here');
  });

  it('a PostToolUse hook adds to the result, and a UserPromptSubmit hook adds context to the message', async () => {
    settings(join(rig.box.home, 'settings.json'), {
      PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"README is generated: edit docs/ instead"}}'` }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "Team rule: answer in one line"' }] }],
    });
    rig.server.load({ turns: [reply.tool('read', { file_path: 'README.md' }), reply.text('Done.', { match: { lastToolResultIncludes: 'README is generated: edit docs/ instead' } })] });
    const r = await keel('read the readme');
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.server.requests[0]?.body.messages)).toContain('Team rule: answer in one line');
    expect(lastRequest()).toContain('README is generated: edit docs/ instead');
  });

  it("a hook the workspace ships does not run without someone to approve it, and says so", async () => {
    settings(join(rig.box.ws, '.claude', 'settings.json'), { PreToolUse: [blockDeletes] });
    rig.server.load({ turns: [reply.tool('bash', { command: 'rm -rf build' }), reply.text('Removed.')] });
    const r = await keel('clean the build folder');
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.box.ws, 'build'))).toBe(false);
    expect(r.stderr).toContain("the PreToolUse hook of the workspace's .claude/settings.json does not run: there is no one to approve it here");
  });
});
