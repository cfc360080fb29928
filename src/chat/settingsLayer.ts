import { approvalModes } from '../core/config/configSchema';
import type { ApprovalMode, ConfigLayer } from '../core/config/configSchema';
import { CUSTOM_PROVIDER, endpointLayer } from '../core/config/endpointLayer';
import { isPresetName, providerPresets } from '../core/model/providerPresets';
import type { PresetName } from '../core/model/providerPresets';
import { sandboxModes } from '../core/sandbox/sandboxTypes';
import type { SandboxMode } from '../core/sandbox/sandboxTypes';
import { readCommandSettings } from './commandSettings';

/** The `keel` section, as far as reading it goes (a vscode.WorkspaceConfiguration fits). */
export interface SettingsSection {
  inspect<T>(key: string):
    | { defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T }
    | undefined;
}

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
  /** keel.sandbox, from the user settings only. */
  sandbox?: SandboxMode;
  maxTurns?: number;
  autoCompact?: boolean;
  compactAt?: number;
  diffReveal?: DiffReveal;
  /** keel.commands.allow / deny, all scopes together; left out when empty. */
  commandsAllow?: string[];
  commandsDeny?: string[];
}

export interface SettingsRead {
  settings: KeelSettings;
  /** Values that were ignored and why: wrong type, or not allowed in an untrusted workspace. */
  problems: string[];
}

type Kind = 'string' | 'approvalMode' | 'turns' | 'boolean' | 'diffReveal' | 'preset' | 'fraction';

const fields: { key: keyof KeelSettings; setting: string; kind: Kind }[] = [
  { key: 'provider', setting: 'provider', kind: 'preset' },
  { key: 'baseUrl', setting: 'baseUrl', kind: 'string' },
  { key: 'model', setting: 'model', kind: 'string' },
  { key: 'planModel', setting: 'planModel', kind: 'string' },
  { key: 'smallModel', setting: 'smallModel', kind: 'string' },
  { key: 'approvalMode', setting: 'approvalMode', kind: 'approvalMode' },
  { key: 'maxTurns', setting: 'maxTurns', kind: 'turns' },
  { key: 'autoCompact', setting: 'autoCompact', kind: 'boolean' },
  { key: 'diffReveal', setting: 'diff.reveal', kind: 'diffReveal' },
  { key: 'compactAt', setting: 'compactAt', kind: 'fraction' },
];

/** Settings whose workspace values an untrusted workspace may not use: they redirect requests. */
export const endpointSettings: ReadonlySet<string> = new Set(['baseUrl', 'provider']);

/**
 * Reads what the person set, most specific scope first. In an untrusted workspace the
 * endpoint comes from user settings only, so a cloned repository cannot send the
 * conversation (and the key) to a server of its choosing.
 */
export function readKeelSettings(section: SettingsSection, workspaceTrusted: boolean): SettingsRead {
  const settings: KeelSettings = {};
  const problems: string[] = [];
  for (const field of fields) {
    const inspected = section.inspect<unknown>(field.setting);
    if (!inspected) continue;
    let raw: unknown;
    if (!workspaceTrusted && endpointSettings.has(field.setting)) {
      raw = inspected.globalValue;
      if (inspected.workspaceValue !== undefined || inspected.workspaceFolderValue !== undefined) {
        problems.push(`keel.${field.setting} from the workspace settings is ignored because the workspace is not trusted.`);
      }
    } else {
      raw = inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
    }
    if (raw === undefined || raw === null) continue;
    const value = parse(field.kind, raw);
    if (value === undefined) {
      problems.push(`keel.${field.setting} has an invalid value and is ignored.`);
      continue;
    }
    if (value === '') continue;
    Object.assign(settings, { [field.key]: value });
  }
  readSandboxSetting(section, settings, problems);
  const commands = readCommandSettings(section, workspaceTrusted, problems);
  if (commands.allow.length > 0) settings.commandsAllow = commands.allow;
  if (commands.deny.length > 0) settings.commandsDeny = commands.deny;
  return { settings, problems };
}

/**
 * keel.sandbox is application-scoped: only the person's user settings count, so a
 * repository's .vscode/settings.json cannot turn the sandbox off.
 */
function readSandboxSetting(section: SettingsSection, settings: KeelSettings, problems: string[]): void {
  const inspected = section.inspect<unknown>('sandbox');
  if (!inspected) return;
  if (inspected.workspaceValue !== undefined || inspected.workspaceFolderValue !== undefined) {
    problems.push('keel.sandbox from the workspace settings is ignored: only your user settings may set it.');
  }
  const raw = inspected.globalValue;
  if (raw === undefined || raw === null) return;
  if (typeof raw === 'string' && (sandboxModes as readonly string[]).includes(raw)) settings.sandbox = raw as SandboxMode;
  else problems.push('keel.sandbox has an invalid value and is ignored.');
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
    case 'diffReveal':
      return typeof raw === 'string' && (diffRevealModes as readonly string[]).includes(raw) ? raw : undefined;
    case 'preset':
      // "" is the setting's default: no preset, so keel.baseUrl (or OpenAI) decides.
      return typeof raw === 'string' && (raw === '' || isPresetName(raw)) ? raw : undefined;
    case 'fraction':
      return typeof raw === 'number' && raw >= 0.3 && raw <= 0.95 ? raw : undefined;
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
