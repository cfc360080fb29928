import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CallOptions, GenerateResult, LanguageModelSpec, StreamResult } from '../wire/modelSpec';

/**
 * Loads one of this folder's SDK modules (`googleSdk`, `vertexSdk`…) on first use: the build's
 * own file next to the bundle (`dist/<name>.js`, CommonJS, so it is required: an import would run
 * Node's CommonJS export scan over the whole file first), else this folder's source (tests run
 * from source). The path is computed so that no bundler folds the provider into the bundle that
 * loads it: esbuild's lazy wrapping of a dynamically imported module breaks zod's initialisation
 * order in the rest of the bundle.
 */
export async function importSdk<T>(name: string): Promise<T> {
  const built = join(__dirname, `${name}.js`);
  if (existsSync(built)) return createRequire(built)(built) as T;
  return (await import(/* @vite-ignore */ pathToFileURL(join(__dirname, `${name}.ts`)).href)) as T;
}

/**
 * A key goes only to the origin it was paired with: a redirect would carry it elsewhere, so
 * the SDK's requests refuse to follow one (Keel's own wires never follow redirects either).
 */
export const noRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'error' });

/** An endpoint reached with a key: base URL up to the API version, the key paired with its origin, extra headers. */
export interface KeyedEndpoint {
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/**
 * An SDK provider's settings for a keyed endpoint. Without a key the SDK would read its own
 * variable (ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY…) itself, past Keel's pairing rule,
 * so an absent key is an empty one.
 */
export function keyedSettings(endpoint: KeyedEndpoint) {
  return { baseURL: endpoint.baseURL.replace(/\/+$/, ''), apiKey: endpoint.apiKey ?? '', headers: endpoint.headers, fetch: noRedirects };
}

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
