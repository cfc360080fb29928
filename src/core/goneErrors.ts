import { errorCode } from './errorCode';

/** A file-system error that means "nothing there for us" (missing, not a folder, not ours to look into) rather than a failure. */
export function isGone(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES';
}

/** As `isGone`, and also what the system forbids outright (EPERM: a protected folder on macOS, say). */
export function isGoneOrForbidden(err: unknown): boolean {
  return isGone(err) || errorCode(err) === 'EPERM';
}
