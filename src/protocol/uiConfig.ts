import * as z from 'zod';
import { approvalModeSchema, reasoningChoiceSchema } from './sessionState';

const httpUrl = z.url({ protocol: /^https?$/ });

/** Settings the chat view shows and may change. The API key itself never crosses. */
export const uiConfigSchema = z.strictObject({
  model: z.string().nullable(),
  /** Model for plan mode; null means the main model. */
  planModel: z.string().nullable(),
  /** OpenAI-compatible endpoint; null means the provider default. */
  baseUrl: httpUrl.nullable(),
  approvalMode: approvalModeSchema,
  /** Whether SecretStorage (or the environment) holds a key. */
  apiKeySet: z.boolean(),
  /** In an untrusted workspace, workspace-level endpoint settings are ignored. */
  workspaceTrusted: z.boolean(),
});

/** One setting per call; null clears it (falls back to the default / deletes the key). */
export const configSetParamsSchema = z.discriminatedUnion('key', [
  z.strictObject({ key: z.literal('model'), value: z.string().min(1).nullable() }),
  z.strictObject({ key: z.literal('planModel'), value: z.string().min(1).nullable() }),
  z.strictObject({ key: z.literal('baseUrl'), value: httpUrl.nullable() }),
  z.strictObject({ key: z.literal('approvalMode'), value: approvalModeSchema }),
  /** The person's reasoning choice for one model (`provider/model`), kept in their user settings. */
  z.strictObject({ key: z.literal('reasoning'), model: z.string().min(1).max(500), value: reasoningChoiceSchema }),
  /** Stored in SecretStorage, never in settings files or logs. */
  z.strictObject({ key: z.literal('apiKey'), value: z.string().min(1).nullable() }),
]);

export const modelInfoSchema = z.strictObject({
  id: z.string().min(1),
  /** Display name when it differs from the id. */
  label: z.string().optional(),
  contextWindow: z.number().int().positive().optional(),
});

export type UiConfig = z.infer<typeof uiConfigSchema>;
export type ConfigSetParams = z.infer<typeof configSetParamsSchema>;
export type ConfigKey = ConfigSetParams['key'];
export type ModelInfo = z.infer<typeof modelInfoSchema>;
