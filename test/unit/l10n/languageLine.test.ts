// The one line of the system prompt that names the person's display language.
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, languageLine } from '../../../src/core/systemPrompt';

describe('the display language line', () => {
  it('names the language the person reads, by script for Chinese', () => {
    expect(languageLine('zh-cn')).toMatch(/^The person's display language is Simplified Chinese \(zh-cn\): write your answers in it/);
    expect(languageLine('zh-tw')).toContain('Traditional Chinese (zh-tw)');
    expect(languageLine('de')).toContain('German (de)');
    expect(languageLine('not a tag!')).toBeUndefined();
  });

  it('goes into the prompt after the English instructions, and only when the host knows the language', () => {
    const facts = { mode: 'act' as const, context: '' };
    const zh = buildSystemPrompt({ ...facts, displayLanguage: 'zh-cn' });
    expect(zh.startsWith('You are Keel, a coding agent')).toBe(true);
    expect(zh).toContain('Simplified Chinese (zh-cn)');
    expect(buildSystemPrompt(facts)).not.toContain('display language');
  });
});
