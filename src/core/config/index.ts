// The config subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { approvalModes } from './configSchema';
export type { ApprovalMode, ConfigLayer, KeelConfig } from './configSchema';
export { CUSTOM_PROVIDER, endpointLayer } from './endpointLayer';
export { mergeLayers, resolveConfig, userConfigPath, workspaceConfigPath } from './loadConfig';
export type { WorkspaceLayer } from './workspaceNarrowing';
