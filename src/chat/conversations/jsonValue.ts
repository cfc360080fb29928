import type { JsonValue } from '../../core/jsonValue';

/**
 * A tool call's input as plain JSON for the bus (whose schema is `z.json()`): what the
 * model sent already is JSON, but an SDK may hand over `undefined` fields or odd numbers.
 * Anything that cannot be serialised is shown as its string form rather than dropped (the
 * log's `toLoggedJson` throws instead).
 */
export function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as JsonValue);
  } catch (err) {
    return `[input that cannot be shown as JSON: ${err instanceof Error ? err.message : String(err)}]`;
  }
}
