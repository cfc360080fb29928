// The log channel of the extension's own test runs keeps what was written, and still writes it.
import type * as vscode from 'vscode';
import { describe, expect, it } from 'vitest';
import { recordingChannel } from '../../../src/vscode/recordingChannel';

describe('recordingChannel', () => {
  it('keeps each line with its level and passes every call on to the real channel', () => {
    const written: string[] = [];
    const real = {
      name: 'Keel',
      info: (m: string) => written.push(`info ${m}`),
      error: (m: string | Error) => written.push(`error ${m instanceof Error ? m.message : m}`),
      show(this: { name: string }) {
        written.push(`show ${this.name}`);
      },
    } as unknown as vscode.LogOutputChannel;
    const lines: string[] = [];
    const channel = recordingChannel(real, lines);
    channel.info('core: ready');
    channel.error(new Error('plugin failed'));
    const show = channel.show;
    show();
    expect(lines).toEqual(['info: core: ready', 'error: plugin failed']);
    expect(written).toEqual(['info core: ready', 'error plugin failed', 'show Keel']);
    expect(channel.name).toBe('Keel');
  });
});
