import * as z from 'zod';

/** Events the webview emits (webview → host). */
export const webviewEvents = {
  /** The webview is listening; the host answers with one `snapshot` (and posts nothing before). */
  ready: z.strictObject({ protocolVersion: z.number().int() }),
  /** A problem inside the webview (render error, dropped frame) for the host's log. */
  log: z.strictObject({ level: z.enum(['debug', 'info', 'warn', 'error']), message: z.string().max(4000) }),
};
