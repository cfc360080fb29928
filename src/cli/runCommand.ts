import { cliElicitor, cliHookApproval, cliSamplingApproval, processTerminal } from './cliQuestions';
import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import type { ConfigLayer } from '../core/config';
import { Context } from '../core/context';
import { endpointLayer } from '../core/config';
import { providerOrigin } from '../core/model';
import type { PairedKey } from '../core/model';
import { errorMessage, KeelError } from '../core/errors';
import { expandMcpPrompt } from './mcpPromptRun';
import { resourceMentions } from '../core/mentions/index';
import { createFsHost } from '../core/fsHost';
import { describeShortfall } from '../core/sandbox';
import { statedLanguage } from './cliLocale';
import { Project } from '../core/project';
import type { RunArgs } from './cliArgs';
import { readMcpConfigArgs } from './mcpConfigArg';
import { cliMcpOAuth } from './mcpSignInCli';
import { streamJsonPrinter, textPrinter } from './eventPrinter';
import { recordedWorktree, worktreeContext, worktreeFor } from './worktreeRun';
import { removeWorktree } from '../core/worktrees';
import type { CliIo } from './cliIo';
import { configureNetwork, networkSettingsFromEnv } from '../core/net';
import type { Printer } from './eventPrinter';

/**
 * The model flags as a config layer: a preset names its endpoint, a bare base URL becomes the
 * `custom` provider. OPENAI_* variables describe OpenAI or a custom endpoint, never a preset's
 * (a DeepSeek request must not carry the OpenAI key): presets read their own key variable.
 */
export function cliModelLayer(a: RunArgs, env: Record<string, string | undefined>): { layer: ConfigLayer; apiKeys: Record<string, PairedKey | undefined> } {
  const preset = a.provider;
  const viaOpenAiEnv = preset === undefined || preset === 'openai';
  const baseURL = a.baseURL ?? (preset === undefined ? env.OPENAI_BASE_URL : undefined);
  const { layer, provider } = endpointLayer({ preset, baseURL, model: a.model });
  if (a.approval) layer.approvalMode = a.approval;
  if (a.sandbox) layer.sandbox = a.sandbox;
  if (a.maxTurns) layer.maxTurns = a.maxTurns;
  const key = a.apiKey ?? (viaOpenAiEnv ? env.OPENAI_API_KEY : undefined);
  // The key is for the endpoint these flags and variables name, and for no other.
  const paired = key ? { key, origin: providerOrigin(provider, layer.providers?.[provider], env) } : undefined;
  return { layer, apiKeys: { [provider]: paired } };
}

/** `version`: Keel's own, reported to MCP servers as the client version. */
export async function runCommand(a: RunArgs, io: CliIo, signal: AbortSignal, version?: string): Promise<number> {
  const printer: Printer = a.output === 'stream-json' ? streamJsonPrinter(io.stdout) : textPrinter(io.stdout, io.stderr);
  // HTTPS_PROXY, HTTP_PROXY and NO_PROXY (lowercase first) for the model, MCP servers and fetch.
  configureNetwork(networkSettingsFromEnv(io.env));
  const host = createFsHost({
    log: (level, message) => level !== 'debug' && io.stderr(`keel [${level}] ${message}\n`),
    displayLanguage: statedLanguage(io.env),
  });
  const { layer, apiKeys } = cliModelLayer(a, io.env);
  const checkout = resolve(a.cwd);
  const made = await worktreeFor(a, io);
  const worktree = made ?? (a.session ? recordedWorktree(checkout, a.session, io.env) : undefined);
  const cwd = worktree?.path ?? checkout;
  let ctx: Context;
  try {
    const mcpServers = readMcpConfigArgs(a.mcpConfigs, { workspaceFolder: cwd, env: io.env });
    const terminal = processTerminal();
    ctx = await Context.create({
      mcpServers,
      clientVersion: version,
      mcpOAuth: cliMcpOAuth(io.env, io.stderr),
      mcpElicit: cliElicitor(a.mcpElicitation ?? (terminal ? 'ask' : 'decline'), terminal, (line) => io.stderr(`keel: ${line}\n`)),
      // Without a terminal nobody could approve a request on the person's model: servers are told there is no sampling.
      ...(terminal ? { mcpApproveSampling: cliSamplingApproval(terminal, (line) => io.stderr(`keel: ${line}\n`)) } : {}),
      ...(terminal ? { approveHook: cliHookApproval(terminal, (line) => io.stderr(`keel: ${line}\n`)) } : {}),
      folders: [{ path: cwd }, ...a.addDirs.map((path) => ({ path }))],
      host,
      env: io.env,
      overrides: [layer],
      apiKeys,
      ...(worktree ? { worktree: worktreeContext(worktree, checkout) } : {}),
    });
    // Ignored workspace settings were said on stderr when the Context logged them; stream-json readers get them as events.
    for (const message of ctx.warnings) printer.warning(message);
    // Resolve the model before opening a session so a configuration error leaves no empty log behind.
    ctx.models.resolve(a.plan ? 'planModel' : 'model', layer.model);
    // A run that may run commands says first which of the sandbox's protections they lack here.
    if (!a.plan && ctx.workspaceTrusted) {
      const missing = describeShortfall(await ctx.sandbox.shortfall());
      if (missing) io.stderr(`keel: ${missing}\n`);
    }
  } catch (err) {
    // Nothing ran in it yet: a worktree made for a run that cannot start is taken back.
    if (made) await removeWorktree(made, { deleteBranch: true });
    throw err;
  }
  const session = a.session ? ctx.sessions.open(a.session) : ctx.sessions.create({ cwd });
  // Recorded as VS Code records it, so the conversation is listed with its branch and resumes there.
  if (made) session.appendConfig('worktree', made);
  if (session.recovered) io.stderr(`keel: ${session.recovered}\n`);
  let project: Project | undefined;
  try {
    project = new Project(ctx, session);
    if (a.approval && project.approvalMode !== a.approval) project.setApprovalMode(a.approval);
    // Kept with the session: `keel run --session ID` goes on as the same agent.
    if (a.agent !== undefined) await project.useAgent(a.agent);
    const run = a.plan ? project.plan.bind(project) : project.send.bind(project);
    let prompt: string;
    try {
      prompt = await expandMcpPrompt(a.prompt, ctx.mcp);
    } catch (err) {
      const usage = err instanceof KeelError && err.code === 'usage';
      printer.error(usage ? 'usage' : 'mcp_prompt_failed', errorMessage(err));
      return usage ? 2 : 1;
    }
    const mentions = resourceMentions(a.prompt, ctx.mcp.status().map((s) => s.name));
    const result = await run(prompt, {
      ...(mentions.length ? { mentions } : {}),
      signal,
      model: layer.model,
      maxTurns: a.maxTurns,
      onEvent: (e) => printer.event(e),
    });
    // Background jobs end here, before the result line: what they changed is reported first.
    await project.dispose();
    if (result.status === 'error') printer.error('model_error', result.error?.message ?? 'the model request failed');
    printer.result(result);
    if (result.plan && a.output !== 'stream-json') io.stderr(`keel: ${l10n.t('plan saved as {0}', project.plans.filePath(result.plan.id))}\n`);
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
