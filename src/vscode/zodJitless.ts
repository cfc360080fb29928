import { config } from 'zod';

// zod's first schema compile probes `navigator`, which VS Code's extension host reports as a
// deprecated global in the log. Compiled parsers bring nothing measurable here (the session
// resume bench is the same either way), so they are turned off. Imported first by keelRuntime.
config({ jitless: true });
