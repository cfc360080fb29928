// The session subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { isKeelNote } from './keelNotes';
export type { Session, SessionEntry } from './session';
export { exportFileName, exportSource, sessionToJson, sessionToMarkdown } from './sessionExport';
export type { ExportSource } from './sessionExport';
export type { CommandChange, LoggedSubagent, PlanRecord, RulesRecord, SnapshotRecord } from './sessionRecords';
export { SessionStore } from './sessionStore';
export type { SessionSummary } from './sessionSummary';
export { generateTitle } from './sessionTitle';
export { usageText } from './usageText';
