import * as l10n from '@vscode/l10n';
import { approvalModes } from '../../core/config';
import type { ApprovalMode, ConfigLayer } from '../../core/config';
import type { WorkspaceLayer } from '../../core/config';
import { CUSTOM_PROVIDER, endpointLayer } from '../../core/config';
import { allowEntryProblem } from '../../core/env';
import { isPresetName } from '../../core/model';
import type { PresetName } from '../../core/model';
import { providerPresets } from '../../core/model';
import { sandboxModes } from '../../core/sandbox';
import type { SandboxMode } from '../../core/sandbox';
import { readCommandSettings } from './commandSettings';
import type { ReasoningChoice } from '../../core/model';
import { readReasoningSettings } from './reasoningSettings';
import type { SettingsSection } from './settingsSection';
import { personalOnlySettings, scanWorkspaceSettings, workspaceSettingsFile } from './workspaceSettingsScan';
import type { WorkspaceSettingValue, WorkspaceSettingsFiles } from './workspaceSettingsScan';


export const diffRevealModes = ['focus', 'background', 'none'] as const;
export type DiffReveal = (typeof diffRevealModes)[number];

/** The `keel.*` settings someone actually set (defaults left out, so config files still count). */
export interface KeelSettings {
  provider?: PresetName;
  baseUrl?: string;
  model?: string;
  planModel?: string;
  smallModel?: string;
  approvalMode?: ApprovalMode;
  sandbox?: SandboxMode;
  maxTurns?: number;
  autoCompact?: boolean;
  compactAt?: number;
  diffReveal?: DiffReveal;
  /** keel.commands.allow / deny, all scopes together; left out when empty. */
  commandsAllow?: string[];
  commandsDeny?: string[];
  /** keel.shellEnv.allow (user settings only): variables commands inherit besides the built-in list. */
  shellEnvAllow?: string[];
  /** keel.snapshots.maxFileMB / capMB: snapshots around commands. */
  snapshotMaxFileMB?: number;
  snapshotCapMB?: number;
  /** keel.reasoning (user settings only): the reasoning chosen by model; left out when empty. */
  reasoning?: Record<string, ReasoningChoice>;
}

export interface SettingsRead {
  /** What is in effect as far as settings go: personal-only settings from the user settings alone. */
  settings: KeelSettings;
  /** Model settings whose value came from the workspace's settings, and the file it came from. */
  fromWorkspace: Partial<Record<ModelSetting, string>>;
  /** The user's own value of each model setting the workspace overrode: what applies if the workspace's is ignored. */
  userModels: Partial<Record<ModelSetting, string>>;
  /** Approval and sandbox modes the workspace's settings ask for: honoured only where stricter than the person's. */
  narrowing: WorkspaceSettingValue[];
  /** Values that were ignored and why: wrong type, or a workspace setting that may only come from the person. */
  problems: string[];
}

type ModelSetting = 'model' | 'planModel' | 'smallModel';

type Kind = 'string' | 'approvalMode' | 'sandbox' | 'turns' | 'boolean' | 'diffReveal' | 'preset' | 'fraction' | 'megabytes';

const fields: { key: keyof KeelSettings; setting: string; kind: Kind }[] = [
  { key: 'provider', setting: 'provider', kind: 'preset' },
  { key: 'baseUrl', setting: 'baseUrl', kind: 'string' },
  { key: 'model', setting: 'model', kind: 'string' },
  { key: 'planModel', setting: 'planModel', kind: 'string' },
  { key: 'smallModel', setting: 'smallModel', kind: 'string' },
  { key: 'approvalMode', setting: 'approvalMode', kind: 'approvalMode' },
  { key: 'sandbox', setting: 'sandbox', kind: 'sandbox' },
  { key: 'maxTurns', setting: 'maxTurns', kind: 'turns' },
  { key: 'autoCompact', setting: 'autoCompact', kind: 'boolean' },
  { key: 'diffReveal', setting: 'diff.reveal', kind: 'diffReveal' },
  { key: 'compactAt', setting: 'compactAt', kind: 'fraction' },
  { key: 'snapshotMaxFileMB', setting: 'snapshots.maxFileMB', kind: 'megabytes' },
  { key: 'snapshotCapMB', setting: 'snapshots.capMB', kind: 'megabytes' },
];

/** Settings only the user settings may set (they are application-scoped in package.json). */
export const personalSettings: ReadonlySet<string> = new Set(personalOnlySettings);

/**
 * Reads what the person set. Personal-only settings (approval mode, sandbox, allow rules, the
 * endpoint) come from the user settings alone, trusted workspace or not: a workspace that sets
 * them is named in `problems`, or, for a stricter mode, handed on in `narrowing`. The others
 * take the most specific scope. `where` names the workspace's settings files, read to find what
 * VS Code itself hides from extensions.
 */
export function readKeelSettings(section: SettingsSection, where?: WorkspaceSettingsFiles): SettingsRead {
  const settings: KeelSettings = {};
  const fromWorkspace: SettingsRead['fromWorkspace'] = {};
  const userModels: SettingsRead['userModels'] = {};
  const problems: string[] = [];
  const found: WorkspaceSettingValue[] = [];
  if (where) {
    const scanned = scanWorkspaceSettings(where);
    found.push(...scanned.found);
    problems.push(...scanned.problems);
  }
  const folderFile = where?.folders[0] ? workspaceSettingsFile(where.folders[0]) : l10n.t('the workspace folder settings');
  const workspaceFile = where?.workspaceFile ?? folderFile;
  for (const field of fields) {
    const inspected = section.inspect<unknown>(field.setting);
    if (!inspected) continue;
    let raw: unknown;
    if (personalSettings.has(field.setting)) {
      raw = inspected.globalValue;
    } else {
      raw = inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
      if (field.key === 'model' || field.key === 'planModel' || field.key === 'smallModel') {
        if (inspected.workspaceFolderValue !== undefined) fromWorkspace[field.key] = folderFile;
        else if (inspected.workspaceValue !== undefined) fromWorkspace[field.key] = workspaceFile;
        const own = typeof inspected.globalValue === 'string' ? inspected.globalValue.trim() : '';
        if (fromWorkspace[field.key] && own) userModels[field.key] = own;
      }
    }
    if (raw === undefined || raw === null) continue;
    const value = parse(field.kind, raw);
    if (value === undefined) {
      problems.push(l10n.t('keel.{0} has an invalid value and is ignored.', field.setting));
      continue;
    }
    if (value === '') {
      delete fromWorkspace[field.key as keyof SettingsRead['fromWorkspace']];
      continue;
    }
    Object.assign(settings, { [field.key]: value });
  }
  // VS Code normally leaves personal-only settings out of the workspace scopes; the files read above are where they show.
  for (const setting of personalOnlySettings) {
    if (found.some((f) => f.setting === setting)) continue;
    const inspected = section.inspect<unknown>(setting);
    if (inspected?.workspaceFolderValue !== undefined) found.push({ origin: folderFile, setting, value: inspected.workspaceFolderValue });
    else if (inspected?.workspaceValue !== undefined) found.push({ origin: workspaceFile, setting, value: inspected.workspaceValue });
  }
  const narrowing: WorkspaceSettingValue[] = [];
  for (const f of found) {
    if (f.setting === 'approvalMode' || f.setting === 'sandbox') {
      if (parse(f.setting, f.value) === undefined) problems.push(`${f.origin}: ${l10n.t('keel.{0} has an invalid value and is ignored.', f.setting)}`);
      else narrowing.push(f);
    } else if (!isEmpty(f.value)) {
      problems.push(`${f.origin}: ${whyPersonal(f.setting)}`);
    }
  }
  const commands = readCommandSettings(section, problems);
  if (commands.allow.length > 0) settings.commandsAllow = commands.allow;
  if (commands.deny.length > 0) settings.commandsDeny = commands.deny;
  const envAllow = readEnvAllow(section, problems);
  if (envAllow.length > 0) settings.shellEnvAllow = envAllow;
  const reasoning = readReasoningSettings(section, problems);
  if (Object.keys(reasoning).length > 0) settings.reasoning = reasoning;
  return { settings, fromWorkspace, userModels, narrowing, problems };
}

function whyPersonal(setting: 'commands.allow' | 'shellEnv.allow' | 'baseUrl' | 'provider'): string {
  if (setting === 'shellEnv.allow') {
    return l10n.t('"keel.{0}" is ignored: a workspace may not pass more of your environment to commands; add variables in your user settings.', setting);
  }
  return setting === 'commands.allow'
    ? l10n.t('"keel.{0}" is ignored: a workspace may not let commands run without asking; add allow rules to your user settings.', setting)
    : l10n.t('"keel.{0}" is ignored: a workspace may not change where requests, and your key, are sent; set it in your user settings.', setting);
}

/** keel.shellEnv.allow from the user settings; bad entries are left out and named. */
function readEnvAllow(section: SettingsSection, problems: string[]): string[] {
  const value = section.inspect<unknown>('shellEnv.allow')?.globalValue;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(l10n.t('keel.{0} must be a list of variable names; a value that is not one is ignored.', 'shellEnv.allow'));
    return [];
  }
  const out = new Set<string>();
  for (const entry of value) {
    const problem = typeof entry === 'string' ? allowEntryProblem(entry) : l10n.t('entries must be strings');
    if (problem) problems.push(l10n.t('keel.{0}: {1}; that entry is ignored.', 'shellEnv.allow', problem));
    else out.add(entry as string);
  }
  return [...out];
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * The workspace's model settings and modes as a workspace layer for the core, which keeps
 * only what narrows. Model names are mapped as the person's endpoint knows them.
 */
export function workspaceSettingsLayers(read: SettingsRead, layer: ConfigLayer): WorkspaceLayer[] {
  const byOrigin = new Map<string, ConfigLayer>();
  const at = (origin: string) => {
    let l = byOrigin.get(origin);
    if (!l) byOrigin.set(origin, (l = {}));
    return l;
  };
  for (const [key, origin] of Object.entries(read.fromWorkspace) as [keyof SettingsRead['fromWorkspace'], string][]) {
    const value = layer[key];
    if (value !== undefined) at(origin)[key] = value;
  }
  for (const f of read.narrowing) {
    if (f.setting === 'approvalMode') at(f.origin).approvalMode = f.value as ApprovalMode;
    if (f.setting === 'sandbox') at(f.origin).sandbox = f.value as SandboxMode;
  }
  return [...byOrigin].map(([origin, l]) => ({ origin, layer: l, keyPrefix: 'keel.' }));
}

/**
 * The person's part of the settings as a config layer: their own model names where the
 * workspace set others (so an ignored workspace model falls back to the person's).
 */
export function personalSettingsLayer(read: SettingsRead, known: Parameters<typeof settingsLayer>[1] = {}): ConfigLayer {
  const mine: KeelSettings = { ...read.settings };
  for (const key of Object.keys(read.fromWorkspace) as ModelSetting[]) {
    delete mine[key];
    const own = read.userModels[key];
    if (own) mine[key] = own;
  }
  return settingsLayer(mine, known).layer;
}

function parse(kind: Kind, raw: unknown): string | number | boolean | undefined {
  switch (kind) {
    case 'string':
      return typeof raw === 'string' ? raw.trim() : undefined;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'turns':
      return typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 1000 ? raw : undefined;
    case 'approvalMode':
      return typeof raw === 'string' && (approvalModes as readonly string[]).includes(raw) ? raw : undefined;
    case 'sandbox':
      return typeof raw === 'string' && (sandboxModes as readonly string[]).includes(raw) ? raw : undefined;
    case 'diffReveal':
      return typeof raw === 'string' && (diffRevealModes as readonly string[]).includes(raw) ? raw : undefined;
    case 'preset':
      // "" is the setting's default: no preset, so keel.baseUrl (or OpenAI) decides.
      return typeof raw === 'string' && (raw === '' || isPresetName(raw)) ? raw : undefined;
    case 'fraction':
      return typeof raw === 'number' && raw >= 0.3 && raw <= 0.95 ? raw : undefined;
    case 'megabytes':
      return typeof raw === 'number' && raw > 0 && raw <= 1_000_000 ? raw : undefined;
  }
}

export interface SettingsLayer {
  layer: ConfigLayer;
  /** Whose API key to ask SecretStorage for first: the preset, `custom` with a base URL, else `openai`. */
  provider: string;
}

/**
 * The settings as the core's top config layer. `known` is what the config files define, so
 * a model named after one of their aliases is not redirected to `custom/`.
 * Throws a KeelError for a base URL that is not an http(s) URL.
 */
export function settingsLayer(
  settings: KeelSettings,
  known: { providers?: readonly string[]; aliases?: readonly string[]; sources?: readonly string[] } = {},
): SettingsLayer {
  const endpoint = endpointLayer(
    { preset: settings.provider, baseURL: settings.baseUrl, model: settings.model, planModel: settings.planModel, smallModel: settings.smallModel },
    known,
  );
  const layer: ConfigLayer = { ...endpoint.layer };
  if (settings.approvalMode !== undefined) layer.approvalMode = settings.approvalMode;
  if (settings.sandbox !== undefined) layer.sandbox = settings.sandbox;
  if (settings.maxTurns !== undefined) layer.maxTurns = settings.maxTurns;
  if (settings.autoCompact !== undefined) layer.autoCompact = settings.autoCompact;
  if (settings.compactAt !== undefined) layer.compactAt = settings.compactAt;
  if (settings.snapshotMaxFileMB !== undefined || settings.snapshotCapMB !== undefined) {
    layer.snapshots = {};
    if (settings.snapshotMaxFileMB !== undefined) layer.snapshots.maxFileMB = Math.min(settings.snapshotMaxFileMB, 4096);
    if (settings.snapshotCapMB !== undefined) layer.snapshots.capMB = settings.snapshotCapMB;
  }
  if (settings.shellEnvAllow) layer.shellEnv = { allow: settings.shellEnvAllow };
  if (settings.reasoning) layer.reasoning = settings.reasoning;
  if (settings.commandsAllow || settings.commandsDeny) {
    layer.commands = {};
    if (settings.commandsAllow) layer.commands.allow = settings.commandsAllow;
    if (settings.commandsDeny) layer.commands.deny = settings.commandsDeny;
  }
  return { layer, provider: endpoint.provider };
}

/**
 * The provider whose key "Set API Key" stores and the settings panel reports on: the
 * endpoint of keel.baseUrl (`custom`), else the provider the model names, else `openai`.
 */
export function keyProvider(settings: KeelSettings, knownProviders: readonly string[] = []): string {
  if (settings.provider) return settings.provider;
  if (settings.baseUrl) return CUSTOM_PROVIDER;
  const model = settings.model ?? '';
  const slash = model.indexOf('/');
  const prefix = slash > 0 ? model.slice(0, slash) : undefined;
  return prefix && (knownProviders.includes(prefix) || isPresetName(prefix)) ? prefix : 'openai';
}

/**
 * The environment variable the core reads a provider's key from when SecretStorage has
 * none (mirrors ModelRegistry: OPENAI_API_KEY, else KEEL_<PROVIDER>_API_KEY or apiKeyEnv).
 */
export function keyEnvName(provider: string, apiKeyEnv?: string): string {
  if (apiKeyEnv) return apiKeyEnv;
  const preset = isPresetName(provider) ? providerPresets[provider].apiKeyEnv : undefined;
  if (preset) return preset;
  return provider === 'openai' ? 'OPENAI_API_KEY' : `KEEL_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
}
