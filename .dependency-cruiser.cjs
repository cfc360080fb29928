// Keel's layers, checked by dependency-cruiser from a unit test (test/unit/layers/layers.test.ts),
// so `npm test` fails when one breaks. Type-only imports count: a cycle closed by `import type`
// is still a cycle in the design. Paths are relative to the folder the check runs in (the repo,
// or a fixture tree under test/fixtures/layers/).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-stands-alone',
      comment: 'src/core runs headless (the CLI): no editor, no bus, no view, no host layer.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/(vscode|protocol|conversation|cli|chat)/', '^webview/', '^vscode$', '(^|/)node_modules/@types/vscode/'] },
    },
    {
      name: 'chat-is-editor-free',
      comment: 'src/chat is the host layer without VS Code: it talks to the editor through interfaces src/vscode fills.',
      severity: 'error',
      from: { path: '^src/chat/' },
      to: { path: ['^src/vscode/', '^vscode$', '(^|/)node_modules/@types/vscode/'] },
    },
    {
      name: 'core-through-entries',
      comment:
        'The editor, chat and CLI layers use a core subsystem (a folder of src/core) only through its entry module, index.ts: what a subsystem offers is declared in one place, and its insides can change without touching them.',
      severity: 'error',
      from: { path: '^src/(chat|vscode|cli)/' },
      to: { path: '^src/core/[^/]+/', pathNot: '^src/core/[^/]+/index\\.ts$' },
    },
    {
      name: 'webview-speaks-protocol',
      comment: 'The webview knows the host only through src/protocol, and folds the conversation with src/conversation.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: '^src/', pathNot: '^src/(protocol|conversation)/' },
    },
    {
      name: 'webview-no-node',
      comment: 'The webview runs in a browser.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'protocol-only-zod',
      comment: 'src/protocol is shared by host and webview: its own files and zod, nothing else.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { pathNot: ['^src/protocol/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'conversation-folds-protocol',
      comment: 'src/conversation (the one fold of the conversation, shared by host and webview) uses the protocol and zod only.',
      severity: 'error',
      from: { path: '^src/conversation/' },
      to: { pathNot: ['^src/(conversation|protocol)/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'no-cycles',
      comment: 'Modules depend one way; a cycle (type imports included) means two things are one, or one is in the wrong place.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no JS compiler API yet: swc parses the sources (type-only imports included).
    parser: 'swc',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
