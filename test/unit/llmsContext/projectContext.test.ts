import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import type { KeelPlugin } from '../../../src/core/plugins/pluginTypes';
import { Project } from '../../../src/core/project';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from './projectHarness';
import type { ProjectBench } from './projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

/** What request i showed the model: its system prompt, then the text of its user messages (where the workspace context rides). */
const requestOf = (i: number) => {
  const messages = server.requests[i].body.messages as { role: string; content: string | { type: string; text?: string }[] }[];
  const text = (c: (typeof messages)[number]['content']) => (typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('\n'));
  return messages.filter((m) => m.role === 'system' || m.role === 'user').map((m) => text(m.content)).join('\n');
};

describe('the workspace context in each request', () => {
  it('sends the gathered sections with the message and reports the rules in effect', async () => {
    bench = projectBench(server);
    bench.write('AGENTS.md', 'Always answer in haiku.');
    bench.write('README.md', '# Widget\nMakes widgets.');
    bench.write('src/main.ts', 'export {};');
    const { project } = await bench.project([reply.text('ok')]);
    const r = recorder();
    await project.send('hello', r);
    const system = requestOf(0);
    expect(system).toMatch(/^You are Keel, a coding agent/);
    expect(system).toContain('<environment>\nDate: ');
    expect(system).toContain('<git>\nThe workspace is not in a git repository.\n</git>');
    expect(system).toContain('  src/\n    main.ts');
    expect(system).toContain('<rules file="AGENTS.md" scope="workspace">\nAlways answer in haiku.\n</rules>');
    expect(system).toContain('<readme>\nFrom README.md:\n# Widget');
    const context = r.events.find((e) => e.type === 'context');
    expect(context).toMatchObject({
      type: 'context',
      rules: [{ display: 'AGENTS.md', scope: 'workspace', status: 'included' }],
      sections: expect.arrayContaining([expect.objectContaining({ id: 'structure', cut: false })]),
    });
  });

  it('keeps the plan prompt in plan mode', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('## Goal')]);
    await project.plan('plan it', recorder());
    expect(requestOf(0)).toMatch(/^You are Keel in plan mode/);
    expect(requestOf(0)).toContain('<directory_structure>');
  });

  it('adds sections from the context plugin hook', async () => {
    bench = projectBench(server);
    const plugin: KeelPlugin = {
      name: 'tickets',
      context: ({ mode }) => [{ title: 'Open tickets', text: `KEEL-1 fix the widget (${mode})` }],
    };
    const { project } = await bench.project([reply.text('ok')], { plugins: [plugin] });
    await project.send('hi', recorder());
    expect(requestOf(0)).toContain('<plugin_context title="Open tickets">\nKEEL-1 fix the widget (act)\n</plugin_context>');
  });

  it('leaves out a malformed plugin section and says so in the log', async () => {
    bench = projectBench(server);
    const logs: string[] = [];
    const plugin = { name: 'broken', context: () => [{ title: 42, text: null }, { title: 'Fine', text: 'kept' }] } as unknown as KeelPlugin;
    const { project } = await bench.project([reply.text('ok')], {
      plugins: [plugin],
      host: createFsHost({ log: (_l, m) => logs.push(m) }),
    });
    await project.send('hi', recorder());
    expect(requestOf(0)).toContain('<plugin_context title="Fine">\nkept\n</plugin_context>');
    expect(logs.join('\n')).toContain('without a string title and text');
  });

  it('shows nested rules with the result of the tool that first touched their folder, then with the next message', async () => {
    bench = projectBench(server);
    bench.write('packages/api/AGENTS.md', 'API code uses snake_case.');
    bench.write('packages/api/src/handler.ts', 'export const x = 1;\n');
    const { project } = await bench.project([
      reply.tool('read', { file_path: 'packages/api/src/handler.ts' }),
      { ...reply.text('read it'), match: { lastToolResultIncludes: 'API code uses snake_case.' } },
      reply.text('second answer'),
    ]);
    const r = recorder();
    const first = await project.send('look at the handler', r);
    expect(first.status).toBe('completed');
    expect(requestOf(0)).not.toContain('snake_case');
    await project.send('and again', r);
    expect(requestOf(2)).toContain('<rules file="packages/api/AGENTS.md" scope="nested" applies_to="packages/api/">\nAPI code uses snake_case.');
    const contexts = r.events.filter((e) => e.type === 'context');
    expect(contexts.at(-1)).toMatchObject({ rules: [{ display: 'packages/api/AGENTS.md', scope: 'nested' }] });
  });

  it('a Copilot applyTo rule comes with the result of the tool that first touched a matching file', async () => {
    bench = projectBench(server);
    bench.write('.github/instructions/ts.instructions.md', '---\napplyTo: "**/*.ts"\n---\nUse import type for types.');
    bench.write('notes.md', 'hello\n');
    bench.write('src/a.ts', 'export const a = 1;\n');
    const { project } = await bench.project([
      reply.tool('read', { file_path: 'notes.md' }),
      { ...reply.text('read notes'), match: { lastToolResultIncludes: 'hello' } },
      reply.tool('read', { file_path: 'src/a.ts' }),
      { ...reply.text('read a.ts'), match: { lastToolResultIncludes: 'Use import type for types.' } },
    ]);
    const r = recorder();
    expect((await project.send('read the notes', r)).status).toBe('completed');
    expect(JSON.stringify(server.requests[1].body)).not.toContain('Use import type');
    expect((await project.send('now the code', r)).status).toBe('completed');
    expect(JSON.stringify(server.requests[3].body)).toContain('applies_to=\\"**/*.ts\\"');
  });

  it('a file the person mentions brings in the scoped rules that match it, and says why', async () => {
    bench = projectBench(server);
    bench.write('.cursor/rules/react.mdc', '---\ndescription:\nglobs: web/**/*.tsx\nalwaysApply: false\n---\nComponents are function components.');
    bench.write('web/App.tsx', 'export {};\n');
    const { project } = await bench.project([reply.text('first'), reply.text('second')]);
    const r = recorder();
    await project.send('hello', r);
    expect(requestOf(0)).not.toContain('function components');
    await project.send('look at this', { ...r, mentions: [{ kind: 'file', path: 'web/App.tsx' }] });
    expect(requestOf(1)).toContain('<rules file=".cursor/rules/react.mdc" scope="workspace" applies_to="web/**/*.tsx">\nComponents are function components.');
    const contexts = r.events.filter((e) => e.type === 'context');
    expect(contexts.at(-1)).toMatchObject({
      rules: [{ display: '.cursor/rules/react.mdc', trigger: 'files', matched: { glob: 'web/**/*.tsx', file: 'web/App.tsx' }, status: 'included' }],
    });
  });

  it('a resumed conversation keeps the nested rules of the folders it worked in', async () => {
    bench = projectBench(server);
    bench.write('packages/web/CLAUDE.md', 'Web code uses tabs.');
    bench.write('packages/web/app.ts', 'export {};\n');
    const { ctx, project } = await bench.project([reply.tool('read', { file_path: 'packages/web/app.ts' }), reply.text('read'), reply.text('resumed')]);
    await project.send('look', recorder());
    const id = project.session.id;
    project.session.close();
    const resumed = new Project(ctx, ctx.sessions.open(id));
    expect((await resumed.context.rulesInEffect()).map((r) => r.display)).toEqual(['packages/web/CLAUDE.md']);
    await resumed.send('go on', recorder());
    expect(requestOf(2)).toContain('<rules file="packages/web/CLAUDE.md" scope="nested" applies_to="packages/web/">\nWeb code uses tabs.');
    resumed.session.close();
  });

  it('sees a file the agent wrote in the next request (writes invalidate the cached listing)', async () => {
    bench = projectBench(server);
    bench.write('a.txt', 'a');
    const { project } = await bench.project(
      [reply.tool('write', { file_path: 'brand-new.txt', content: 'hi' }), reply.text('wrote'), reply.text('next')],
      { overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode: 'yolo' }] },
    );
    await project.send('write it', recorder());
    expect(requestOf(0)).not.toContain('brand-new.txt');
    await project.send('again', recorder());
    expect(requestOf(2)).toContain('brand-new.txt');
  });
});
