// esbuild bundles CSS imported from TypeScript into dist/webview.css; the import itself has no value.
declare module '*.css';
