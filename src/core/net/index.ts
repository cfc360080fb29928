// The net subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export type { NetworkSettings } from './networkSettings';
export { networkSettingsFromEnv, splitNoProxy } from './networkSettings';
export { configureNetwork } from './network';
export { netFetch } from './netFetch';
