import * as l10n from '@vscode/l10n';
import type { Context } from '../../core/context';
import { CUSTOM_PROVIDER } from '../../core/config';
import { KeelError, errorMessage } from '../../core/errors';
import { describeShortfall } from '../../core/sandbox';
import type { RequestParams, RequestResult } from '../../protocol/catalogue';
import type { SlashEntry } from '../../protocol/hostMethods';
import type { ConfigSummary } from '../../protocol/sessionState';
import type { ModelInfo } from '../../protocol/uiConfig';
import type { BuiltCore } from './coreLoader';
import { chosenEndpoint } from '../settings/chosenEndpoint';
import { thrownError } from '../runs/runErrors';
import { toUiSummary } from '../sessions/uiSessions';

/** What the view's first-run panel and banners need, from a built core (one problem a line). */
export async function configSummaryOf(built: BuiltCore): Promise<ConfigSummary> {
  const problems = [...built.problems];
  let modelConfigured = false;
  try {
    built.ctx.models.resolve('model');
    modelConfigured = true;
  } catch (err) {
    // "No model" is what the first-run panel explains; other reasons are problems to name.
    if (!(err instanceof KeelError && err.code === 'model_not_configured')) problems.unshift(thrownError(err, built.secrets).message);
  }
  const summary: ConfigSummary = {
    modelConfigured,
    workspaceTrusted: built.ctx.workspaceTrusted,
    problem: problems.length > 0 ? problems.join('\n') : null,
    endpoint: chosenEndpoint(built.ctx.config, built.provider),
  };
  try {
    const agents = await built.ctx.llmsContext.agents();
    // Within the schema's limits: a long description is cut, not a summary the view refuses.
    if (agents.length > 0) summary.agents = agents.slice(0, 1000).map((a) => ({ name: a.name, description: a.description.slice(0, 2000) }));
  } catch (err) {
    summary.problem = [summary.problem, l10n.t('The custom agents could not be read: {0}', errorMessage(err))].filter(Boolean).join('\n');
  }
  // Commands are off in an untrusted workspace: no sandbox to speak of then.
  const sandbox = built.ctx.workspaceTrusted ? describeShortfall(await built.ctx.sandbox.shortfall()) : undefined;
  if (sandbox) summary.sandbox = sandbox;
  return summary;
}

/**
 * The command files and skills `/name` can run, commands first; a name taken twice keeps its
 * first (the core resolves `/name` the same way). Descriptions are cut for the menu.
 */
export async function slashCommands(ctx: Context): Promise<SlashEntry[]> {
  const [commands, skills] = await Promise.all([ctx.llmsContext.commandFiles(), ctx.llmsContext.skills()]);
  const seen = new Set<string>();
  const out: SlashEntry[] = [];
  const add = (entry: SlashEntry): void => {
    if (seen.has(entry.name)) return;
    seen.add(entry.name);
    out.push(entry);
  };
  for (const c of commands) add({ name: c.name.slice(0, 200), description: c.description.slice(0, 1000), kind: 'command', source: c.display.slice(0, 1000) });
  for (const s of skills) add({ name: s.name.slice(0, 200), description: s.description.slice(0, 1000), kind: 'skill', source: s.display.slice(0, 1000) });
  return out.slice(0, 1000);
}

/** One page of this workspace's conversations; sessions that never got a message are left out unless `keep` says. */
export function sessionsPage(ctx: Context, params: RequestParams<'sessions.list'>, keep: (id: string) => boolean): RequestResult<'sessions.list'> {
  const all = ctx.sessions.list(params.query ? { query: params.query } : {}).filter((s) => s.messageCount > 0 || keep(s.id));
  const offset = params.offset ?? 0;
  const page = all.slice(offset, offset + (params.limit ?? 50));
  return { sessions: page.map(toUiSummary), total: all.length };
}

/**
 * The configured models (main, plan, small) and the aliases, each once, then the models
 * sources offer (VS Code's, plugins'), then what the configured providers' endpoints list at
 * `/models`. An endpoint without a list (or one that is down) only costs its own entries; the
 * reason goes to the log.
 */
export async function listModels(ctx: Context, fetchImpl?: typeof fetch): Promise<RequestResult<'models.list'>> {
  const models: ModelInfo[] = [];
  const seen = new Set<string>();
  const offered = ctx.models.sourceModels();
  const add = (id: string | undefined, label = offered.find((m) => m.id === id)?.label ?? customName(id), window = true): void => {
    if (!id || seen.has(id)) return;
    seen.add(id);
    const info: ModelInfo = { id };
    if (label && label !== id) info.label = label;
    const size = window ? contextWindowOf(ctx, id) : undefined;
    if (size) info.contextWindow = size;
    models.push(info);
  };
  const configured = [ctx.models.configuredId('model'), ctx.models.configuredId('planModel'), ctx.models.configuredId('smallModel')];
  for (const id of configured) add(id);
  for (const [alias, target] of Object.entries(ctx.config.modelAliases)) add(alias, `${alias} → ${target}`);
  for (const model of offered) add(model.id, model.label);
  const providers = new Set<string>();
  for (const id of configured) {
    const provider = providerOf(ctx, id);
    if (provider) providers.add(provider);
  }
  const lists = await Promise.all(
    [...providers].map(async (provider) => ({ provider, result: await ctx.models.endpointModels(provider, fetchImpl) })),
  );
  for (const { provider, result } of lists) {
    if (!result) continue;
    if (!result.ok) {
      ctx.host.log('info', `models.list: ${result.reason}`);
      continue;
    }
    // The endpoint's own names; a custom endpoint's models are shown without the `custom/` prefix.
    for (const id of result.ids) add(`${provider}/${id}`, provider === CUSTOM_PROVIDER ? id : undefined, false);
  }
  return { models, current: ctx.models.configuredId('model') ?? null };
}

/** The name the person configured for a custom endpoint's model: `custom/` is Keel's, not theirs. */
function customName(id: string | undefined): string | undefined {
  const prefix = `${CUSTOM_PROVIDER}/`;
  return id?.startsWith(prefix) ? id.slice(prefix.length) : undefined;
}

function providerOf(ctx: Context, id: string | undefined): string | undefined {
  if (!id) return undefined;
  try {
    return ctx.models.parse(id).provider;
  } catch {
    // An alias loop is reported where the model is used; the list just has nothing to add.
    return undefined;
  }
}

function contextWindowOf(ctx: Context, id: string): number | undefined {
  try {
    return ctx.models.resolve('model', id).contextWindow;
  } catch (err) {
    // A listed id the registry cannot resolve (alias to an unknown provider) is still listed, without a window.
    ctx.host.log('debug', `models.list: no context window for ${id}: ${errorMessage(err)}`);
    return undefined;
  }
}
