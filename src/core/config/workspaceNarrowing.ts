import { parseModelRef } from '../model/modelRef';
import type { ApprovalMode, ConfigLayer, KeelConfig, ProviderConfig } from './configSchema';
import type { SandboxMode } from '../sandbox/sandboxTypes';

/**
 * A layer the workspace ships (its `.keel/config.json`, its VS Code settings). Someone else
 * wrote it, so it may narrow what Keel does and never widen it or move where a key goes.
 */
export interface WorkspaceLayer {
  /** Where it came from, as the person would look for it: the file's path. */
  origin: string;
  layer: ConfigLayer;
  /** How its keys are spelled where it came from: `keel.` for VS Code settings. */
  keyPrefix?: string;
}

/** What the person's own layers (user config, user settings, flags, environment) say. */
export interface PersonalView {
  config: KeelConfig;
  /** Providers the person set up: configured in their layers, holding a key they gave, or a model source of the host. */
  providers: ReadonlySet<string>;
  /** Model sources of the host and plugins (`vscode-lm`), which count as providers when parsing model ids. */
  sources: readonly string[];
}

export interface NarrowedLayer {
  layer: ConfigLayer;
  /** One sentence per ignored key, naming the file and the key. */
  warnings: string[];
}

const approvalStrictness: Record<ApprovalMode, number> = { yolo: 0, autoEdit: 1, manual: 2 };
const sandboxStrictness: Record<SandboxMode, number> = { off: 0, auto: 1, on: 2 };

export function strictestApproval(modes: readonly ApprovalMode[]): ApprovalMode {
  return modes.reduce((a, b) => (approvalStrictness[b] > approvalStrictness[a] ? b : a));
}

export function strictestSandbox(modes: readonly SandboxMode[]): SandboxMode {
  return modes.reduce((a, b) => (sandboxStrictness[b] > sandboxStrictness[a] ? b : a));
}

/** Layer keys that neither widen what Keel may do nor route a request. */
const harmlessKeys: ReadonlySet<string> = new Set(['maxTurns', 'autoCompact', 'compactAt', 'mcpToolTimeout']);

/** Provider fields that only describe models; everything else routes requests or keys. */
const descriptiveProviderKeys: ReadonlySet<string> = new Set(['contextWindow', 'models']);

/** Providers the person set up, by the rules of PersonalView. */
export function personalProviders(config: KeelConfig, keyProviders: readonly string[], sources: readonly string[]): Set<string> {
  const out = new Set<string>([...Object.keys(config.providers), ...keyProviders, ...sources]);
  for (const ref of [config.model, config.planModel, config.smallModel]) {
    const provider = ref ? providerOf(ref, config, sources) : undefined;
    if (provider) out.add(provider);
  }
  return out;
}

/**
 * Keeps what a workspace layer may say: stricter modes, more deny rules, model details, and
 * models or aliases that stay on providers the person set up. Everything else is dropped, and
 * each dropped key is named once, with the file it came from.
 */
export function narrowWorkspaceLayer(ws: WorkspaceLayer, person: PersonalView): NarrowedLayer {
  const warnings: string[] = [];
  const prefix = ws.keyPrefix ?? '';
  const ignore = (key: string, value: unknown, why: string) =>
    warnings.push(`${ws.origin}: "${prefix}${key}": ${JSON.stringify(value)} is ignored: ${why}.`);
  const { approvalMode, sandbox, commands, providers, modelAliases, model, planModel, smallModel, ...rest } = ws.layer;
  const out: ConfigLayer = {};
  // Keys that only shape a run are taken as they are; any other key (one added later, such as a
  // network allow list) is the person's alone until it is judged here.
  for (const [key, value] of Object.entries(rest)) {
    if (harmlessKeys.has(key)) Object.assign(out, { [key]: value });
    else ignore(key, value, 'a workspace may not set it; set it in ~/.keel/config.json');
  }

  if (approvalMode !== undefined) {
    const mine = person.config.approvalMode;
    if (approvalStrictness[approvalMode] >= approvalStrictness[mine]) out.approvalMode = approvalMode;
    else ignore('approvalMode', approvalMode, `a workspace may only make approvals stricter than yours ("${mine}"); choose the mode in your own settings, ~/.keel/config.json or with --approval`);
  }
  if (sandbox !== undefined) {
    const mine = person.config.sandbox;
    if (sandboxStrictness[sandbox] >= sandboxStrictness[mine]) out.sandbox = sandbox;
    else ignore('sandbox', sandbox, `a workspace may only make the sandbox stricter than yours ("${mine}")`);
  }
  if (commands) {
    if (commands.allow?.length) ignore('commands.allow', commands.allow, 'a workspace may not let commands run without asking; add allow rules to your own settings or ~/.keel/config.json');
    if (commands.deny) out.commands = { deny: commands.deny };
  }
  if (providers) {
    const kept: Record<string, ProviderConfig> = {};
    for (const [name, entry] of Object.entries(providers)) {
      if (!person.config.providers[name] && !isBuiltin(name, person)) {
        ignore(`providers.${name}`, entry, 'a workspace may not add a model endpoint; define providers in ~/.keel/config.json');
        continue;
      }
      const safe: ProviderConfig = {};
      for (const [key, value] of Object.entries(entry) as [keyof ProviderConfig, unknown][]) {
        if (descriptiveProviderKeys.has(key)) Object.assign(safe, { [key]: value });
        else ignore(`providers.${name}.${key}`, redactHeaders(key, value), 'a workspace may not change where requests, and your key, are sent');
      }
      if (Object.keys(safe).length > 0) kept[name] = safe;
    }
    if (Object.keys(kept).length > 0) out.providers = kept;
  }

  // Aliases and model names are judged with the person's providers and the workspace's own aliases.
  const aliases: Record<string, string> = {};
  const lookup = (ref: string) => providerOf(ref, { ...person.config, modelAliases: { ...person.config.modelAliases, ...modelAliases } }, person.sources);
  for (const [alias, target] of Object.entries(modelAliases ?? {})) {
    const why = offProviders(lookup(target), person);
    if (why) ignore(`modelAliases.${alias}`, target, why);
    else aliases[alias] = target;
  }
  if (Object.keys(aliases).length > 0) out.modelAliases = aliases;
  const judged = (ref: string) => providerOf(ref, { ...person.config, modelAliases: { ...person.config.modelAliases, ...aliases } }, person.sources);
  for (const [key, ref] of [['model', model], ['planModel', planModel], ['smallModel', smallModel]] as const) {
    if (ref === undefined) continue;
    const why = offProviders(judged(ref), person);
    if (why) ignore(key, ref, why);
    else out[key] = ref;
  }
  return { layer: out, warnings };
}

function isBuiltin(name: string, person: PersonalView): boolean {
  // Presets and model sources are known without configuration; their endpoints are their own.
  return providerOf(`${name}/x`, person.config, person.sources) === name;
}

function offProviders(provider: string | undefined, person: PersonalView): string | undefined {
  if (provider === undefined) return 'it does not resolve to a model (an alias loop)';
  if (person.providers.has(provider)) return undefined;
  return `it would send your requests to provider "${provider}", which you have not set up (only your own settings, ~/.keel/config.json, flags or keys choose a provider)`;
}

function providerOf(ref: string, config: KeelConfig, sources: readonly string[]): string | undefined {
  try {
    return parseModelRef(ref, config, sources).provider;
  } catch {
    // An alias loop or an empty id routes nowhere; where such a ref is used, the loop is reported.
    return undefined;
  }
}

/** Header values may hold secrets the workspace put there; the warning names the headers only. */
function redactHeaders(key: string, value: unknown): unknown {
  return key === 'headers' && value && typeof value === 'object' ? Object.keys(value) : value;
}
