import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { KeelError, errorMessage } from '../errors';
import { configLayerSchema, defaultConfig } from './configSchema';
import type { ConfigLayer, KeelConfig } from './configSchema';

export interface ConfigSources {
  /** The user's file, `$KEEL_HOME/config.json`. */
  userFile?: string;
  /** The workspace's file, `<root>/.keel/config.json`. */
  workspaceFile?: string;
  /** Layers from the host (VS Code settings, CLI flags), applied in order after the files. */
  overrides?: ConfigLayer[];
  /** In an untrusted workspace the workspace file may not redirect the model endpoint. */
  workspaceTrusted?: boolean;
}

export interface ResolvedConfig {
  config: KeelConfig;
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
  };
  if (layer.model !== undefined) out.model = layer.model;
  if (layer.planModel !== undefined) out.planModel = layer.planModel;
  if (layer.smallModel !== undefined) out.smallModel = layer.smallModel;
  if (layer.approvalMode !== undefined) out.approvalMode = layer.approvalMode;
  if (layer.maxTurns !== undefined) out.maxTurns = layer.maxTurns;
  if (layer.autoCompact !== undefined) out.autoCompact = layer.autoCompact;
  if (layer.mcpToolTimeout !== undefined) out.mcpToolTimeout = layer.mcpToolTimeout;
  if (layer.compactAt !== undefined) out.compactAt = layer.compactAt;
  if (layer.sandbox !== undefined) out.sandbox = layer.sandbox;
  return out;
}

function union(base: readonly string[], more: readonly string[] | undefined): string[] {
  return more ? [...new Set([...base, ...more])] : [...base];
}

/**
 * Strips what an untrusted workspace may not change: where requests go and what they carry,
 * and which commands run without asking (its deny rules stay: they only ask more).
 */
function untrustedView(layer: ConfigLayer, warnings: string[], file: string): ConfigLayer {
  if (layer.commands?.allow !== undefined) {
    warnings.push(`${file}: commands.allow ignored because the workspace is not trusted`);
    const { allow: _ignored, ...commands } = layer.commands;
    layer = { ...layer, commands };
  }
  if (!layer.providers) return layer;
  const providers: NonNullable<ConfigLayer['providers']> = {};
  for (const [name, p] of Object.entries(layer.providers)) {
    const { baseURL, headers, apiKeyEnv, ...safe } = p;
    if (baseURL !== undefined || headers !== undefined || apiKeyEnv !== undefined) {
      warnings.push(`${file}: provider "${name}" endpoint settings ignored because the workspace is not trusted`);
    }
    providers[name] = safe;
  }
  return { ...layer, providers };
}

export function resolveConfig(sources: ConfigSources): ResolvedConfig {
  const warnings: string[] = [];
  let config: KeelConfig = structuredClone(defaultConfig);
  if (sources.userFile) config = mergeLayers(config, readConfigFile(sources.userFile));
  if (sources.workspaceFile) {
    let layer = readConfigFile(sources.workspaceFile);
    if (sources.workspaceTrusted === false) layer = untrustedView(layer, warnings, sources.workspaceFile);
    config = mergeLayers(config, layer);
  }
  for (const layer of sources.overrides ?? []) config = mergeLayers(config, layer);
  return { config, warnings };
}
