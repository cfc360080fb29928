// A conversation exported as Markdown is for people: its headings follow the display language
// (the bundle VS Code loaded, or LANG for the CLI), while what was said and logged stays as it was.
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportSource } from '../../../src/core/session/sessionExport';
import { sessionToMarkdown } from '../../../src/core/session/sessionExport';

const zh = JSON.parse(readFileSync(new URL('../../../l10n/bundle.l10n.zh-cn.json', import.meta.url), 'utf8')) as Record<string, string>;

const source: ExportSource = {
  id: 's-1',
  title: '',
  workspace: '/work/app',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:05:00.000Z',
  usage: { inputTokens: 120, outputTokens: 30 },
  entries: [
    { kind: 'message', id: 'm1', parentId: null, ts: '2026-11-24T10:00:00.000Z', message: { role: 'user', content: 'Fix average()' } },
    {
      kind: 'message',
      id: 'm2',
      parentId: 'm1',
      ts: '2026-11-24T10:01:00.000Z',
      meta: { model: 'qwen' },
      message: { role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { file_path: 'src/math.ts' } }] },
    },
  ],
} as unknown as ExportSource;

afterEach(() => l10n.config({ contents: {} }));

describe('the Markdown export', () => {
  it('is in English by default', () => {
    const md = sessionToMarkdown(source);
    expect(md).toMatch(/^# Untitled chat\n/);
    expect(md).toContain('- Tokens: 150 (120 in, 30 out)');
    expect(md).toContain('## You · 2026-11-24T10:00:00.000Z');
    expect(md).toContain('**Tool `read`** `src/math.ts`');
    expect(md).toContain('_No result (the run stopped before it finished)._');
  });

  it('has Chinese headings with the zh-CN bundle, and the conversation as it was', () => {
    l10n.config({ contents: zh });
    const md = sessionToMarkdown(source);
    expect(md).toMatch(/^# 未命名的聊天\n/);
    expect(md).toContain('- 会话：`s-1`');
    expect(md).toContain('- 令牌：150（输入 120，输出 30）');
    expect(md).toContain('## 你 · 2026-11-24T10:00:00.000Z');
    expect(md).toContain('## Keel (qwen) · 2026-11-24T10:01:00.000Z');
    expect(md).toContain('**工具 `read`** `src/math.ts`');
    expect(md).toContain('Fix average()');
    expect(md).toContain('Reading it.');
    expect(md).not.toMatch(/Tokens|Session:|No result/);
  });
});
