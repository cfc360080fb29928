import type * as vscode from 'vscode';

const PREFIX = 'keel.apiKey.';

/** API keys in VS Code's SecretStorage, one per provider name. Never in settings or logs. */
export class ApiKeyStore {
  constructor(private readonly secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>) {}

  static isKeyName(secretKey: string): boolean {
    return secretKey.startsWith(PREFIX);
  }

  async get(provider: string): Promise<string | undefined> {
    const value = await this.secrets.get(PREFIX + provider);
    return value?.trim() ? value.trim() : undefined;
  }

  async has(provider: string): Promise<boolean> {
    return (await this.get(provider)) !== undefined;
  }

  async set(provider: string, key: string | null): Promise<void> {
    const trimmed = key?.trim();
    if (trimmed) await this.secrets.store(PREFIX + provider, trimmed);
    else await this.secrets.delete(PREFIX + provider);
  }
}
