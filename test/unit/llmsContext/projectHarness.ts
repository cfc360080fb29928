import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Context } from '../../../src/core/context';
import type { ContextOptions } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

/** A workspace and KEEL_HOME in a temp folder, and Projects wired to the scripted server. */
export interface ProjectBench {
  ws: string;
  home: string;
  write(rel: string, content?: string): string;
  project(turns: Turn[], over?: Partial<ContextOptions>): Promise<{ ctx: Context; project: Project }>;
  cleanup(): void;
}

export function projectBench(server: ScriptedServer): ProjectBench {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-proj-ctx-')));
  const ws = join(dir, 'ws');
  const home = join(dir, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const contexts: Context[] = [];
  const projects: Project[] = [];
  return {
    ws,
    home,
    write(rel, content = '') {
      const path = join(ws, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    async project(turns, over = {}) {
      server.load({ turns });
      const ctx = await Context.create({
        folders: [{ path: ws }],
        host: createFsHost(),
        env: { KEEL_HOME: home },
        overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }],
        ...over,
      });
      contexts.push(ctx);
      const project = new Project(ctx, ctx.sessions.create());
      projects.push(project);
      return { ctx, project };
    },
    cleanup() {
      for (const p of projects) p.session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Records events and answers approvals from a list (declines when the list runs out). */
export function recorder(answers: Array<Partial<ApprovalAnswer>> = []) {
  const asked: ApprovalRequest[] = [];
  const events: ProjectEvent[] = [];
  return {
    asked,
    events,
    onEvent: (e: ProjectEvent) => events.push(e),
    onToolApprove: async (r: ApprovalRequest): Promise<ApprovalAnswer> => {
      asked.push(r);
      return { approved: false, ...answers.shift() };
    },
  };
}
