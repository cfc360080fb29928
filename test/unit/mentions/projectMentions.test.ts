import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isMentionExpansion } from '../../../src/core/mentions/mentionBlock';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

const lastUserSent = () => {
  const messages = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1));
};

describe('Project.send with mentions', () => {
  it('sends the expansion with the message and records it and the mentions in the session log', async () => {
    bench = projectBench(server);
    bench.write('src/config.ts', 'export const port = 8080;\n');
    const { ctx, project } = await bench.project([reply.text('The port is 8080.')]);
    const r = recorder();
    const mentions = [{ kind: 'file' as const, path: 'src/config.ts' }];
    const result = await project.send('What port?', { ...r, mentions });
    expect(result.status).toBe('completed');
    expect(lastUserSent()).toContain('export const port = 8080;');
    expect(r.events.find((e) => e.type === 'mentions')).toMatchObject({ outcomes: [{ label: '@src/config.ts', status: 'included' }] });

    // A resumed session sends the model exactly what it saw the first time.
    const id = project.session.id;
    project.session.close();
    const reopened = ctx.sessions.open(id);
    const entry = reopened.entries().find((e) => e.kind === 'message' && e.message.role === 'user');
    expect(entry?.kind === 'message' && entry.meta?.mentions).toEqual(mentions);
    const first = reopened.history()[0] as Extract<ModelMessage, { role: 'user' }>;
    expect(Array.isArray(first.content)).toBe(true);
    const parts = first.content as { type: string; text: string }[];
    expect(parts[0]).toEqual({ type: 'text', text: 'What port?' });
    expect(isMentionExpansion(parts[1].text)).toBe(true);
    expect(parts[1].text).toContain('export const port = 8080;');
    reopened.close();
  });

  it('lets the agent edit a mentioned file without reading it again', async () => {
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const { project } = await bench.project(
      [reply.tool('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }), reply.text('done')],
      { overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode: 'yolo' }] },
    );
    await project.send('change it', { ...recorder(), mentions: [{ kind: 'file', path: 'a.txt' }] });
    expect(JSON.stringify(server.requests[1].body.messages.at(-1))).not.toMatch(/has not been read/);
    expect(readFileSync(join(bench.ws, 'a.txt'), 'utf8')).toBe('beta\n');
  });

  it('says in the message when the mentions budget cut something', async () => {
    bench = projectBench(server);
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long generated file`).join('\n');
    bench.write('big1.txt', big);
    bench.write('big2.txt', big);
    bench.write('big3.txt', big);
    bench.write('big4.txt', big);
    const { project } = await bench.project([reply.text('ok')]);
    const r = recorder();
    await project.send('summarize', {
      ...r,
      mentions: [
        { kind: 'file', path: 'big1.txt' },
        { kind: 'file', path: 'big2.txt' },
        { kind: 'file', path: 'big3.txt' },
        { kind: 'file', path: 'big4.txt' },
      ],
    });
    const sent = lastUserSent();
    expect(sent).toContain('@big1.txt was cut, @big2.txt was cut, @big3.txt was cut, @big4.txt was left out');
    const outcomes = (r.events.find((e) => e.type === 'mentions') as { outcomes: { status: string }[] }).outcomes;
    expect(outcomes.map((o) => o.status)).toEqual(['cut', 'cut', 'cut', 'omitted']);
    // The log keeps what was cut, so a resumed view can still say so on the chips.
    const entry = project.session.entries().find((e) => e.kind === 'message' && e.message.role === 'user');
    expect(entry?.kind === 'message' && entry.meta?.mentionNotes?.map((n) => `${n.label} ${n.status}`)).toEqual([
      '@big1.txt cut',
      '@big2.txt cut',
      '@big3.txt cut',
      '@big4.txt omitted',
    ]);
  });

  it('fetches an @url only with the approval the fetch tool needs, and says so when declined', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('seen'), reply.text('not seen')]);
    const url = `${server.url}/v1/models`;
    const yes = recorder([{ approved: true }]);
    await project.send('what models?', { ...yes, mentions: [{ kind: 'url', url }] });
    expect(yes.asked).toEqual([expect.objectContaining({ tool: 'fetch', category: 'network', summary: url })]);
    expect(lastUserSent()).toContain('scripted-model');

    const no = recorder([{ approved: false, reason: 'not today' }]);
    await project.send('and now?', { ...no, mentions: [{ kind: 'url', url }] });
    expect(no.asked).toHaveLength(1);
    expect(lastUserSent()).toMatch(/could not attach @http:\/\/127\.0\.0\.1:\d+\/v1\/models: The user declined this fetch call; nothing was done\. Reason: not today/);
  });
});
