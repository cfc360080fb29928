import type { Host } from '../../host';
import { locateRipgrep } from './ripgrep';

/** 'auto' uses ripgrep when it can be found and the built-in search otherwise. */
export type SearchEngineChoice = 'auto' | 'ripgrep' | 'js';

export type SearchEngine = { kind: 'ripgrep'; rgPath: string } | { kind: 'js' };

export class SearchEngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchEngineError';
  }
}

export async function chooseSearchEngine(choice: SearchEngineChoice, host: Host): Promise<SearchEngine> {
  if (choice === 'js') return { kind: 'js' };
  const rgPath = await locateRipgrep(host);
  if (rgPath) return { kind: 'ripgrep', rgPath };
  if (choice === 'ripgrep') {
    throw new SearchEngineError('ripgrep (rg) is required for this search but was not found on PATH or at the host path.');
  }
  return { kind: 'js' };
}
