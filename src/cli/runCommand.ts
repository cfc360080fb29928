import { resolve } from 'node:path';
import type { ConfigLayer } from '../core/config/configSchema';
import { Context } from '../core/context';
import { endpointLayer } from '../core/config/endpointLayer';
import { errorMessage } from '../core/errors';
import { createFsHost } from '../core/fsHost';
import { Project } from '../core/project';
import type { RunArgs } from './cliArgs';
import { streamJsonPrinter, textPrinter } from './eventPrinter';
import type { Printer } from './eventPrinter';

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}

/** The model flags as a config layer: a base URL becomes the `custom` provider. */
export function cliModelLayer(a: RunArgs, env: Record<string, string | undefined>): { layer: ConfigLayer; apiKeys: Record<string, string | undefined> } {
  const { layer, provider } = endpointLayer({ baseURL: a.baseURL ?? env.OPENAI_BASE_URL, model: a.model });
  if (a.approval) layer.approvalMode = a.approval;
  if (a.maxTurns) layer.maxTurns = a.maxTurns;
  return { layer, apiKeys: { [provider]: a.apiKey ?? env.OPENAI_API_KEY } };
}

export async function runCommand(a: RunArgs, io: CliIo, signal: AbortSignal): Promise<number> {
  const printer: Printer = a.output === 'stream-json' ? streamJsonPrinter(io.stdout) : textPrinter(io.stdout, io.stderr);
  const host = createFsHost({ log: (level, message) => level !== 'debug' && io.stderr(`keel [${level}] ${message}\n`) });
  const { layer, apiKeys } = cliModelLayer(a, io.env);
  const ctx = await Context.create({
    folders: [{ path: resolve(a.cwd) }],
    host,
    env: io.env,
    overrides: [layer],
    apiKeys,
  });
  // Resolve the model before opening a session so a configuration error leaves no empty log behind.
  ctx.models.resolve(a.plan ? 'planModel' : 'model', layer.model);
  const session = a.session ? ctx.sessions.open(a.session) : ctx.sessions.create({ cwd: resolve(a.cwd) });
  if (session.recovered) io.stderr(`keel: ${session.recovered}\n`);
  let project: Project | undefined;
  try {
    project = new Project(ctx, session);
    if (a.approval && project.approvalMode !== a.approval) project.setApprovalMode(a.approval);
    const run = a.plan ? project.plan.bind(project) : project.send.bind(project);
    const result = await run(a.prompt, {
      signal,
      model: layer.model,
      maxTurns: a.maxTurns,
      onEvent: (e) => printer.event(e),
    });
    if (result.status === 'error') printer.error('model_error', result.error?.message ?? 'the model request failed');
    printer.result(result);
    return result.status === 'completed' ? 0 : 1;
  } catch (err) {
    printer.error('run_failed', errorMessage(err));
    return 1;
  } finally {
    // Background commands end with the run: nothing of it outlives `keel run`.
    await project?.dispose();
    session.close();
    await ctx.destroy();
  }
}
