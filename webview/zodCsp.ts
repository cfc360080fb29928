import { config } from 'zod';

// zod probes for eval (new Function) to compile faster parsers; under the webview's CSP
// that probe is refused and logged as a violation. Imported first by main.tsx, before
// any schema is built.
config({ jitless: true });
