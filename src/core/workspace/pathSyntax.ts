import { PathError } from './pathError';

const reservedDeviceName = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

/**
 * Refuses spellings that Windows (or a Windows share) would interpret differently from
 * what the checks see: `..\` traversal, `\\?\` and `\\.\` namespaces, NTFS alternate data
 * streams (`file:stream`), and segments Windows silently trims (trailing dots/spaces).
 * Applied on every platform so a path that is refused on Windows is refused everywhere.
 */
export function assertSafePathSyntax(input: string, platform: NodeJS.Platform = process.platform): void {
  const refuse = (why: string): never => {
    throw new PathError(`Refusing path ${JSON.stringify(input)}: ${why}.`, input);
  };
  if (input.length === 0) refuse('the path is empty');
  if (input.includes('\0')) refuse('it contains a NUL byte');
  if (/^[\\/]{2}[?.][\\/]/.test(input) || input.startsWith('\\??\\')) {
    refuse('Windows device and namespace prefixes (\\\\?\\, \\\\.\\) are not allowed');
  }
  const hasBackslash = input.includes('\\');
  const segments = input.split(/[\\/]/);
  segments.forEach((segment, index) => {
    if (segment === '' || segment === '.') return;
    if (segment === '..') {
      if (hasBackslash) refuse('backslash traversal (..\\) is not allowed; use forward slashes');
      return;
    }
    if (segment.includes(':')) {
      const driveLetter = platform === 'win32' && index === 0 && /^[a-zA-Z]:$/.test(segment);
      if (!driveLetter) refuse(`the segment "${segment}" contains ":" (an NTFS alternate data stream or drive-relative path)`);
      return;
    }
    if (segment.endsWith('.') || segment.endsWith(' ')) {
      refuse(`the segment "${segment}" ends with a dot or space, which Windows silently drops`);
    }
    if (platform === 'win32' && reservedDeviceName.test(segment)) {
      refuse(`"${segment}" is a reserved Windows device name`);
    }
  });
}
