import { describe, expect, it } from 'vitest';
import { joinDraft } from '../../../webview/components/composer/joinDraft';

const file = (path: string, startLine?: number, endLine?: number) =>
  ({ kind: 'file' as const, path, ...(startLine ? { range: { startLine, endLine: endLine ?? startLine } } : {}) });

describe('what the editor adds to the composer', () => {
  it('keeps what the person typed and their chips, and adds each new mention once', () => {
    const draft = { text: 'Why is this slow?', mentions: [file('src/a.ts')], images: [], mode: 'plan' as const };
    const joined = joinDraft(draft, { mentions: [file('src/a.ts'), file('src/a.ts', 3, 9), file('src/b.ts')] });
    expect(joined.text).toBe('Why is this slow?');
    expect(joined.mentions).toEqual([file('src/a.ts'), file('src/a.ts', 3, 9), file('src/b.ts')]);
    expect(joined.mode).toBe('plan');
  });

  it('puts added text on a line after the draft, or alone when the draft is empty', () => {
    const empty = { text: '  ', mentions: [], images: [], mode: undefined };
    expect(joinDraft(empty, { text: 'The problems in this file:' }).text).toBe('The problems in this file:');
    expect(joinDraft({ ...empty, text: 'Look at these  ' }, { text: '- a.ts:3: error' }).text).toBe('Look at these\n- a.ts:3: error');
  });
});
