// The mcp subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { parseMcpConfig } from './mcpConfig';
export type { ExpandVars, McpServerConfig, ParsedMcpConfig } from './mcpConfig';
export { parseJsonc, readMcpFile } from './mcpConfigFile';
export { describeServer, serverFingerprint } from './mcpEnv';
export { defaultsAnswer, formFields, readFieldValue } from './mcpElicitation';
export type { ElicitField, ElicitQuestion, Elicitor } from './mcpElicitation';
export { McpManager } from './mcpManager';
export { McpOAuthFile, parseOAuthRecord } from './mcpOAuthFile';
export type { McpOAuthRecord, McpOAuthStore } from './mcpOAuthFile';
export type { McpOAuthHost } from './mcpOAuthProvider';
export { approvedSampler, lastUserText, samplingMessages } from './mcpSampling';
export type { Sampler, SamplingOutcome, SamplingVerdict } from './mcpSampling';
export type { CreateMessageRequestParams } from '@modelcontextprotocol/sdk/types.js';
export { mcpToolName, mcpToolPrefix } from './mcpNames';
export type { McpServerStatus } from './mcpTypes';
