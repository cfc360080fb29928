import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const fixture = join(__dirname, '../../fixtures/workspaces/bringYourSetup');

// Each test works in a copy of the fixture repository; HOME is the sandbox's, so the machine's ~/.claude stays out.
const rig = useCliRig((box) => cpSync(fixture, box.ws, { recursive: true }));

function keel(prompt: string) {
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', prompt], {
    KEEL_HOME: rig.box.home,
    HOME: rig.box.home,
  });
}

const toolNames = (i: number) => (rig.server.requests[i].body.tools as { function: { name: string } }[]).map((x) => x.function.name);

describe('keel run with the fixture repository\'s setup', () => {
  it('"/fix-issue 123 high" runs the command file with its arguments and only its allowed tools', async () => {
    rig.server.load({ turns: [reply.text('Fixed.')] });
    const r = await keel('/fix-issue 123 high');
    expect(r.code).toBe(0);
    const sent = JSON.stringify(rig.server.requests[0].body);
    expect(sent).toContain('Fix issue #123 with priority high. Full arguments: 123 high. Marker: CMD-FIX-ISSUE.');
    // allowed-tools: Read, Grep, Bash(git:*) — narrowed to those; never approved by it.
    expect(toolNames(0).sort()).toEqual(['bash', 'grep', 'read']);
  });

  it('lists the skills by name and loads one only when the model uses it', async () => {
    rig.server.load({
      turns: [reply.tool('skill', { name: 'release-notes' }), { ...reply.text('Notes written.'), match: { lastToolResultIncludes: 'SKILL-RELEASE-NOTES' } }],
    });
    const r = await keel('write the release notes');
    expect(r.code).toBe(0);
    const first = JSON.stringify(rig.server.requests[0].body);
    expect(first).toContain('- release-notes: Write release notes from the git log since the last tag.');
    expect(first).toContain('- db-migrate: Create a new numbered, reversible database migration.');
    expect(first).not.toContain('SKILL-RELEASE-NOTES');
    expect(toolNames(0)).toContain('skill');
    expect(JSON.stringify(rig.server.requests[1].body)).toContain('scripts/since-tag.sh');
    expect(r.lines.find((l) => l.type === 'result')).toBeDefined();
  });
});
