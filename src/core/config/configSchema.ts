import * as z from 'zod';
import { presetNames } from '../model/presetNames';
import { reasoningChoices } from '../model/reasoning';
import type { ReasoningChoice } from '../model/reasoning';
import { sandboxModes } from '../sandbox/sandboxTypes';
import type { SandboxMode } from '../sandbox/sandboxTypes';
import { allowEntryProblem } from '../env/childEnv';
import { patternProblem } from '../shell/commandPatterns';

export const approvalModes = ['manual', 'autoEdit', 'yolo'] as const;
export type ApprovalMode = (typeof approvalModes)[number];

/**
 * `chat` speaks Chat Completions (any OpenAI-compatible server); `responses` is OpenAI's Responses API;
 * `anthropic` is Anthropic's Messages API; `gemini` the Gemini API (Google AI Studio); `vertex` Google
 * Vertex AI (Gemini, and Claude models); `bedrock` Amazon Bedrock's Converse API (these four through the
 * AI SDK's providers, each loaded when first used); `azure` Azure OpenAI's v1 Responses API (Keel's own wire).
 */
export const providerApis = ['chat', 'responses', 'anthropic', 'gemini', 'vertex', 'bedrock', 'azure'] as const;
export type ProviderApi = (typeof providerApis)[number];

const reasoningSupportSchema = z.strictObject({
  style: z.enum(['effort', 'budget', 'level']),
  levels: z.array(z.enum(reasoningChoices).exclude(['default'])).min(1),
});

export const providerSchema = z.strictObject({
  /** Defaults for a known endpoint (base URL, key variable, API); a provider named after a preset gets it anyway. */
  preset: z.enum(presetNames).optional(),
  api: z.enum(providerApis).optional(),
  baseURL: z.url().optional(),
  /** Name of the environment variable holding the key (keys never live in config files). */
  apiKeyEnv: z.string().optional(),
  /** Extra HTTP headers sent with every request (no secrets: config files are not secret storage). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Bedrock's AWS region, or Vertex's location (else AWS_REGION / GOOGLE_VERTEX_LOCATION). */
  region: z.string().regex(/^[a-z0-9-]+$/, 'a region or location such as us-east-1 or europe-west4').optional(),
  /** Vertex's Google Cloud project (else GOOGLE_VERTEX_PROJECT / GOOGLE_CLOUD_PROJECT). */
  project: z.string().min(1).optional(),
  /** Bedrock's AWS profile in the shared config and credentials files (else AWS_PROFILE). */
  profile: z.string().min(1).optional(),
  /** The endpoint takes OpenAI's `prompt_cache_key` (default: only OpenAI's own endpoint is sent one). */
  promptCacheKey: z.boolean().optional(),
  /** Context window in tokens for every model of this provider, unless `models` says otherwise. */
  contextWindow: z.number().int().positive().optional(),
  models: z
    .record(
      z.string(),
      z.strictObject({
        contextWindow: z.number().int().positive().optional(),
        images: z.boolean().optional(),
        /** How the model's reasoning is asked for and the levels it takes (over the catalogue's); false: it has none to choose. */
        reasoning: z.union([z.literal(false), reasoningSupportSchema]).optional(),
        /** The most tokens an answer may take (over the catalogue's limit; the person's own config only). */
        maxOutputTokens: z.number().int().positive().optional(),
        /** Sampling temperature for the model's calls (the person's own config only; models that think ignore it). */
        temperature: z.number().min(0).max(2).optional(),
      }),
    )
    .optional(),
});
export type ProviderConfig = z.infer<typeof providerSchema>;

/** A command prefix such as `npm test` (shell words, one command, no operators). */
const commandPattern = z.string().superRefine((pattern, ctx) => {
  const problem = patternProblem(pattern);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Command approval rules. `allow`: a command line whose every command starts with one of these
 * prefixes runs without asking. `deny`: any match asks in every mode but yolo, and beats allow.
 * Layers add to each other; a workspace's `allow` is ignored (only the person's own layers widen).
 */
export const commandRulesSchema = z.strictObject({
  allow: z.array(commandPattern).optional(),
  deny: z.array(commandPattern).optional(),
});

/** A variable name, or a prefix ending in `*`, that commands and local MCP servers may inherit. */
const envAllowEntry = z.string().superRefine((entry, ctx) => {
  const problem = allowEntryProblem(entry);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const perMillion = z.number().nonnegative();
/** A model's prices in US dollars per million tokens; cached input and cache writes default to input's. */
export const priceSchema = z.strictObject({ input: perMillion, output: perMillion, cachedInput: perMillion.optional(), cacheWrite: perMillion.optional() });
export type ModelPrice = z.infer<typeof priceSchema>;

/** Every field optional: each layer (user, workspace, options) sets only what it changes. */
export const configLayerSchema = z.strictObject({
  model: z.string().min(1).optional(),
  planModel: z.string().min(1).optional(),
  smallModel: z.string().min(1).optional(),
  approvalMode: z.enum(approvalModes).optional(),
  maxTurns: z.number().int().min(1).max(1000).optional(),
  autoCompact: z.boolean().optional(),
  /** Compact when a request reaches this share of the model's context window. */
  compactAt: z.number().min(0.3).max(0.95).optional(),
  providers: z.record(z.string().regex(/^[a-zA-Z0-9_.-]+$/, 'provider names use letters, digits, _ . -'), providerSchema).optional(),
  modelAliases: z.record(z.string(), z.string()).optional(),
  commands: commandRulesSchema.optional(),
  /** Seconds an MCP tool call may take before it ends with an error result. */
  mcpToolTimeout: z.number().positive().max(3600).optional(),
  /** Snapshots around commands: files over `maxFileMB` are recorded by hash only; each conversation keeps at most `capMB`. */
  snapshots: z.strictObject({ maxFileMB: z.number().positive().max(4096).optional(), capMB: z.number().positive().max(1_000_000).optional() }).optional(),
  /** The OS sandbox for commands and local MCP servers: auto (where available), on (refuse without), off. */
  sandbox: z.enum(sandboxModes).optional(),
  /**
   * Command prefixes that get the network inside the sandbox without asking (`npm install`).
   * Widens what Keel does: honoured from the person's own layers only.
   */
  sandboxNetwork: z.array(commandPattern).optional(),
  /**
   * Environment variables commands, background jobs and local MCP servers inherit besides
   * the built-in allow-list (exact names; `NAME_*` prefixes, which never pass a name that
   * looks like a secret). Widens what a command sees: honoured from the person's own layers only.
   */
  shellEnv: z.strictObject({ allow: z.array(envAllowEntry).optional() }).optional(),
  /**
   * Prices in US dollars per million tokens, by model (`provider/model` or the bare model id),
   * over Keel's catalogue. Only the person's own layers set them: a workspace's are ignored.
   */
  prices: z.record(z.string().min(1), priceSchema).optional(),
  /**
   * Reasoning effort or thinking budget by model (`provider/model` or the bare model id), sent
   * with each request where the model takes it (`default`: nothing is sent). The person's own
   * layers only: a workspace's is ignored.
   */
  reasoning: z.record(z.string().min(1), z.enum(reasoningChoices)).optional(),
});
export type ConfigLayer = z.infer<typeof configLayerSchema>;

export interface KeelConfig {
  model?: string;
  planModel?: string;
  smallModel?: string;
  approvalMode: ApprovalMode;
  maxTurns: number;
  autoCompact: boolean;
  compactAt: number;
  providers: Record<string, ProviderConfig>;
  modelAliases: Record<string, string>;
  /** Command prefixes that run without asking / that always ask (see commandRulesSchema). */
  commands: { allow: string[]; deny: string[] };
  /** Seconds an MCP tool call may take (default 60). */
  mcpToolTimeout: number;
  /** Snapshots around commands (see configLayerSchema.snapshots). */
  snapshots: { maxFileMB: number; capMB: number };
  /** The OS sandbox setting (default auto). */
  sandbox: SandboxMode;
  /** Command prefixes that get the network in the sandbox without asking. */
  sandboxNetwork: string[];
  /** Variables children inherit besides the built-in allow-list (see configLayerSchema.shellEnv). */
  shellEnv: { allow: string[] };
  /** Prices the person set, by model (see configLayerSchema.prices). */
  prices: Record<string, ModelPrice>;
  /** Reasoning the person chose, by model (see configLayerSchema.reasoning). */
  reasoning: Record<string, ReasoningChoice>;
}

export const defaultConfig: KeelConfig = {
  approvalMode: 'manual',
  maxTurns: 50,
  autoCompact: true,
  compactAt: 0.8,
  providers: {},
  modelAliases: {},
  commands: { allow: [], deny: [] },
  mcpToolTimeout: 60,
  snapshots: { maxFileMB: 5, capMB: 200 },
  sandbox: 'auto',
  sandboxNetwork: [],
  shellEnv: { allow: [] },
  prices: {},
  reasoning: {},
};
