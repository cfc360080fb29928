/** Plain JSON: what survives JSON.stringify/parse unchanged (and what `z.json()` accepts). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
