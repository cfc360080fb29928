import { describe, expect, it } from 'vitest';
import { fileWriteTargets } from '../../../src/core/shell/fileWriters';

describe('fileWriteTargets', () => {
  it('finds what tee, touch, rm and truncate write: every operand', () => {
    expect(fileWriteTargets(['tee', '-a', 'a.txt', 'b.txt'])).toEqual(['a.txt', 'b.txt']);
    expect(fileWriteTargets(['touch', '-d', 'yesterday', 'x'])).toEqual(['x']);
    expect(fileWriteTargets(['rm', '-rf', '--', '-odd'])).toEqual(['-odd']);
  });

  it('finds the destination of cp, mv, ln and install, or their -t folder', () => {
    expect(fileWriteTargets(['cp', '-r', 'src', 'dest'])).toEqual(['dest']);
    expect(fileWriteTargets(['/bin/mv', 'a', 'b', 'into/'])).toEqual(['into/']);
    expect(fileWriteTargets(['cp', '-t', '.git/hooks', 'payload'])).toEqual(['.git/hooks']);
    expect(fileWriteTargets(['install', '--target-directory=bin', 'tool'])).toEqual(['bin']);
  });

  it("finds dd's of= and reports a target not known before running as null", () => {
    expect(fileWriteTargets(['dd', 'if=/dev/zero', 'of=disk.img'])).toEqual(['disk.img']);
    expect(fileWriteTargets(['tee', null])).toEqual([null]);
  });

  it('says nothing about other commands', () => {
    expect(fileWriteTargets(['git', 'status'])).toBeUndefined();
    expect(fileWriteTargets(['cat', 'x'])).toBeUndefined();
  });
});
