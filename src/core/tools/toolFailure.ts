import { errorMessage } from '../errors';
import { GlobError } from '../workspace/globPattern';
import { PathError } from '../workspace/pathError';
import { FileChangeError } from './fileChange';
import { StaleFileError } from './fileReadTracker';
import { errorResult, type ToolResult } from './tool';

const fsCodes = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EROFS', 'EBUSY', 'ENAMETOOLONG', 'EMFILE']);

function isFsError(err: unknown): boolean {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' && fsCodes.has(err.code);
}

/**
 * Turns failures the model can act on (bad path, stale file, bad glob, file-system refusals)
 * into error results; anything else is a bug and keeps propagating.
 */
export function expectedFailure(err: unknown): ToolResult {
  const expected = [PathError, StaleFileError, GlobError, FileChangeError].some((kind) => err instanceof kind);
  if (expected || isFsError(err)) {
    return errorResult(errorMessage(err));
  }
  throw err;
}
