/** The drag data types that carry files: VS Code's explorer and editors, and other apps. */
const URI_TYPES = ['application/vnd.code.uri-list', 'text/uri-list', 'resourceurls'];

/** Whether a drag carries files or folders the chat can take as chips. */
export function carriesUris(types: readonly string[]): boolean {
  return types.some((t) => URI_TYPES.includes(t.toLowerCase()));
}

/**
 * The URIs a drop carries: a uri-list (one per line, `#` lines are comments) or VS Code's
 * `ResourceURLs` (a JSON array). Empty when there are none.
 */
export function droppedUris(read: (type: string) => string): string[] {
  for (const type of URI_TYPES) {
    const text = read(type).trim();
    if (!text) continue;
    if (type === 'resourceurls') {
      try {
        const list: unknown = JSON.parse(text);
        if (Array.isArray(list)) return list.filter((u): u is string => typeof u === 'string').slice(0, 200);
      } catch {
        continue;
      }
    }
    return text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'))
      .slice(0, 200);
  }
  return [];
}
