import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallOptions, GenerateResult, LanguageModelSpec, StreamResult } from '../wire/modelSpec';

/**
 * Where an SDK provider module is: the build's own file next to the bundle (`dist/<name>.js`),
 * else this folder's source (tests run from source). The specifier is computed so that no
 * bundler folds the provider into the bundle that loads it: esbuild's lazy wrapping of a
 * dynamically imported module breaks zod's initialisation order in the rest of the bundle.
 */
function sdkModuleUrl(name: string): string {
  const built = join(__dirname, `${name}.js`);
  return pathToFileURL(existsSync(built) ? built : join(__dirname, `${name}.ts`)).href;
}

/** Loads one of this folder's SDK modules (`anthropicSdk`, `googleSdk`…) by its file, on first use. */
export function importSdk<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ sdkModuleUrl(name)) as Promise<T>;
}

/**
 * A key goes only to the origin it was paired with: a redirect would carry it elsewhere, so
 * the SDK's requests refuse to follow one (Keel's own wires never follow redirects either).
 */
export const noRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'error' });

/**
 * A model of an AI SDK provider that is loaded on the first call (a dynamic import, so people
 * who never use that provider never load it). `prepare` may adjust each call for the provider
 * (cache breakpoints); the rest passes through.
 */
export abstract class LazySdkModel implements LanguageModelSpec {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  abstract readonly supportedUrls: Record<string, RegExp[]>;
  private loaded: Promise<LanguageModelSpec> | undefined;

  constructor(provider: string, modelId: string) {
    this.provider = provider;
    this.modelId = modelId;
  }

  /** The SDK's model, built once from the loaded module. */
  protected abstract create(): Promise<LanguageModelSpec>;

  protected prepare(options: CallOptions): CallOptions {
    return options;
  }

  private load(): Promise<LanguageModelSpec> {
    this.loaded ??= this.create();
    // A failed load (a missing module, bad credentials setup) is tried again on the next call.
    this.loaded.catch(() => (this.loaded = undefined));
    return this.loaded;
  }

  async doStream(options: CallOptions): Promise<StreamResult> {
    return (await this.load()).doStream(this.prepare(options));
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    return (await this.load()).doGenerate(this.prepare(options));
  }
}
