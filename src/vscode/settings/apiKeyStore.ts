import type * as vscode from 'vscode';

const PREFIX = 'keel.apiKey.';

/**
 * API keys in VS Code's SecretStorage, one per provider and origin (`keel.apiKey.<provider>@<origin>`):
 * a key is read back only for the origin it was stored for. Never in settings or logs.
 */
export class ApiKeyStore {
  constructor(private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>) {}

  static isKeyName(secretKey: string): boolean {
    return secretKey.startsWith(PREFIX);
  }

  /**
   * The key for this provider at this origin. A key stored before keys were paired (named by
   * provider only) is paired on first use with the origin the person's settings give now,
   * which is the only origin it was ever meant for, and stored under its new name.
   */
  async get(provider: string, origin: string): Promise<string | undefined> {
    const value = await this.secrets.get(name(provider, origin));
    if (value?.trim()) return value.trim();
    const legacy = (await this.secrets.get(PREFIX + provider))?.trim();
    if (!legacy) return undefined;
    await this.secrets.store(name(provider, origin), legacy);
    await this.secrets.delete(PREFIX + provider);
    return legacy;
  }

  async has(provider: string, origin: string): Promise<boolean> {
    return (await this.get(provider, origin)) !== undefined;
  }

  async set(provider: string, origin: string, key: string | null): Promise<void> {
    const trimmed = key?.trim();
    if (trimmed) await this.secrets.store(name(provider, origin), trimmed);
    else await this.secrets.delete(name(provider, origin));
  }
}

function name(provider: string, origin: string): string {
  return `${PREFIX}${provider}@${origin}`;
}
