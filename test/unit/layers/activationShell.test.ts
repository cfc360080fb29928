// The activation shell (src/vscode/extension.ts → dist/extension.js, ~30 KB) loads with every
// window: it reaches the runtime only by the dynamic import of keelRuntime. A static import of a
// core subsystem's entry module, the bus, or a model/MCP package pulls that whole subsystem into
// the shell (an MCP sign-in command once took it from 29 KB to 290 KB).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');

/** Value imports (not `import type`, not a dynamic `import()`) of a source file, by specifier. */
function staticValueImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?from\s+)?'([^']+)'/gm)) out.push(m[1]);
  return out;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Every module the shell loads statically, and the packages they import. */
function shellClosure(): { files: string[]; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const todo = [join(repo, 'src/vscode/extension.ts')];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticValueImports(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolveLocal(file, specifier);
      if (target) todo.push(target);
    }
  }
  return { files: [...seen].map((f) => relative(repo, f)), packages };
}

describe('the activation shell', () => {
  it('loads no core subsystem and no model or MCP package until the runtime is imported', () => {
    const { files, packages } = shellClosure();
    expect(files).toContain('src/vscode/extension.ts');
    expect(files.filter((f) => /^src\/core\/[^/]+\//.test(f))).toEqual([]);
    expect([...packages].filter((p) => /^(ai|@ai-sdk\/|@modelcontextprotocol\/|zod|react)/.test(p))).toEqual([]);
  });
});
