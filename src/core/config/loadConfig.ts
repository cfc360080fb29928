import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { KeelError, errorMessage } from '../errors';
import { configLayerSchema, defaultConfig } from './configSchema';
import type { ConfigLayer, KeelConfig } from './configSchema';
import { narrowWorkspaceLayer, personalProviders, strictestApproval, strictestSandbox } from './workspaceNarrowing';
import type { PersonalView, WorkspaceLayer } from './workspaceNarrowing';

export interface ConfigSources {
  /** The user's file, `$KEEL_HOME/config.json`. */
  userFile?: string;
  /** The workspace's file, `<root>/.keel/config.json`: narrowed (see workspaceNarrowing). */
  workspaceFile?: string;
  /** The person's layers from the host (plugins, VS Code user settings, CLI flags), applied in order after the files. */
  overrides?: ConfigLayer[];
  /** Aliases under every layer (plugins'), which the config files may redefine. */
  baseAliases?: Record<string, string>;
  /** The workspace's layers from the host (its VS Code settings), applied last and narrowed. */
  workspaceOverrides?: WorkspaceLayer[];
  /** Providers the person gave a key for (flags, secret storage): set up by the person. */
  keyProviders?: readonly string[];
  /** Model sources of the host and plugins (`vscode-lm`). */
  sources?: readonly string[];
}

export interface ResolvedConfig {
  config: KeelConfig;
  /** The config of the person's own layers alone: where their keys may go. */
  personal: KeelConfig;
  warnings: string[];
}

export function userConfigPath(home: string): string {
  return join(home, 'config.json');
}

export function workspaceConfigPath(root: string): string {
  return join(root, '.keel', 'config.json');
}

function formatIssues(issues: z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/** Reads one layer; a missing file is an empty layer, a broken one is a clear error naming the file. */
export function readConfigFile(file: string): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new KeelError('config', l10n.t('Cannot read Keel config {0}: {1}', file, errorMessage(err)));
  }
  if (text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new KeelError('config', l10n.t('Keel config {0} is not valid JSON: {1}', file, errorMessage(err)));
  }
  return parseConfigLayer(raw, file);
}

export function parseConfigLayer(raw: unknown, origin: string): ConfigLayer {
  const parsed = configLayerSchema.safeParse(raw);
  if (!parsed.success) {
    throw new KeelError('config', l10n.t('Keel config {0} is invalid: {1}', origin, formatIssues(parsed.error.issues)));
  }
  return parsed.data;
}

export function mergeLayers(base: KeelConfig, layer: ConfigLayer): KeelConfig {
  const providers = { ...base.providers };
  for (const [name, p] of Object.entries(layer.providers ?? {})) {
    providers[name] = { ...providers[name], ...p };
  }
  const out: KeelConfig = {
    ...base,
    providers,
    modelAliases: { ...base.modelAliases, ...layer.modelAliases },
    // Rules add up across layers: no layer can take away another's deny rules.
    commands: {
      allow: union(base.commands.allow, layer.commands?.allow),
      deny: union(base.commands.deny, layer.commands?.deny),
    },
    sandboxNetwork: union(base.sandboxNetwork, layer.sandboxNetwork),
    shellEnv: { allow: union(base.shellEnv.allow, layer.shellEnv?.allow) },
    prices: { ...base.prices, ...layer.prices },
    reasoning: { ...base.reasoning, ...layer.reasoning },
  };
  if (layer.model !== undefined) out.model = layer.model;
  if (layer.planModel !== undefined) out.planModel = layer.planModel;
  if (layer.smallModel !== undefined) out.smallModel = layer.smallModel;
  if (layer.approvalMode !== undefined) out.approvalMode = layer.approvalMode;
  if (layer.sandbox !== undefined) out.sandbox = layer.sandbox;
  if (layer.maxTurns !== undefined) out.maxTurns = layer.maxTurns;
  if (layer.autoCompact !== undefined) out.autoCompact = layer.autoCompact;
  if (layer.mcpToolTimeout !== undefined) out.mcpToolTimeout = layer.mcpToolTimeout;
  if (layer.compactAt !== undefined) out.compactAt = layer.compactAt;
  if (layer.snapshots) out.snapshots = { ...base.snapshots, ...layer.snapshots };
  if (layer.sandbox !== undefined) out.sandbox = layer.sandbox;
  return out;
}

function union(base: readonly string[], more: readonly string[] | undefined): string[] {
  return more ? [...new Set([...base, ...more])] : [...base];
}

/**
 * Layers in order: defaults, plugin aliases, the user's file, the workspace's file, the host's
 * layers (plugins, user settings, flags), the workspace's host layers. Workspace layers only
 * narrow: they are judged against the person's layers, whatever the workspace's trust, and a
 * stricter mode from them holds over the person's configured default.
 */
export function resolveConfig(sources: ConfigSources): ResolvedConfig {
  const warnings: string[] = [];
  let base: KeelConfig = structuredClone(defaultConfig);
  if (sources.baseAliases) base.modelAliases = { ...sources.baseAliases };
  if (sources.userFile) base = mergeLayers(base, readConfigFile(sources.userFile));
  let personal = base;
  for (const layer of sources.overrides ?? []) personal = mergeLayers(personal, layer);
  const view: PersonalView = {
    config: personal,
    providers: personalProviders(personal, sources.keyProviders ?? [], sources.sources ?? []),
    sources: sources.sources ?? [],
  };
  const narrowed: ConfigLayer[] = [];
  const narrow = (ws: WorkspaceLayer): ConfigLayer => {
    const out = narrowWorkspaceLayer(ws, view);
    warnings.push(...out.warnings);
    narrowed.push(out.layer);
    return out.layer;
  };
  let config = base;
  if (sources.workspaceFile) config = mergeLayers(config, narrow({ origin: sources.workspaceFile, layer: readConfigFile(sources.workspaceFile) }));
  for (const layer of sources.overrides ?? []) config = mergeLayers(config, layer);
  for (const ws of sources.workspaceOverrides ?? []) config = mergeLayers(config, narrow(ws));
  // The person's layers come after the workspace file, so a stricter mode from it is restored here.
  config = {
    ...config,
    approvalMode: strictestApproval([personal.approvalMode, ...narrowed.flatMap((l) => (l.approvalMode ? [l.approvalMode] : []))]),
    sandbox: strictestSandbox([personal.sandbox, ...narrowed.flatMap((l) => (l.sandbox ? [l.sandbox] : []))]),
  };
  return { config, personal, warnings };
}
