import { describe, expect, it } from 'vitest';
import { capToolOutput } from '../../../src/protocol/limits';

describe('capToolOutput', () => {
  it('leaves short output alone', () => {
    expect(capToolOutput('hello', 100)).toEqual({ output: 'hello', truncated: false });
  });

  it('keeps head and tail within the cap and says how long the output was', () => {
    const text = `HEAD${'.'.repeat(10_000)}TAIL`;
    const { output, truncated } = capToolOutput(text, 200);

    expect(truncated).toBe(true);
    expect(output.length).toBeLessThanOrEqual(200);
    expect(output.startsWith('HEAD')).toBe(true);
    expect(output.endsWith('TAIL')).toBe(true);
    expect(output).toContain(String(text.length));
  });
});
