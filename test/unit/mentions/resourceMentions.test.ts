import { describe, expect, it } from 'vitest';
import { resourceMentions, withResourceMentions } from '../../../src/core/mentions/resourceMentions';

describe('@server:uri in a message', () => {
  it('names a resource only for a configured server, without the sentence punctuation after it', () => {
    expect(resourceMentions('see @docs:file:///a/b.md, then @git and mail@docs:x and @bob:y', ['docs'])).toEqual([{ kind: 'resource', server: 'docs', uri: 'file:///a/b.md' }]);
    expect(resourceMentions('@docs:demo://r/1 (and @docs:demo://r/1)', ['docs'])).toEqual([{ kind: 'resource', server: 'docs', uri: 'demo://r/1' }]);
  });

  it('adds typed resources to the chips a message came with, once each', () => {
    const chip = { kind: 'resource' as const, server: 'docs', uri: 'demo://r/1' };
    const file = { kind: 'file' as const, path: 'a.ts' };
    expect(withResourceMentions('@docs:demo://r/1 @docs:demo://r/2', [file, chip], ['docs'])).toEqual([file, chip, { kind: 'resource', server: 'docs', uri: 'demo://r/2' }]);
    expect(withResourceMentions('nothing here', [file], ['docs'])).toEqual([file]);
  });
});
