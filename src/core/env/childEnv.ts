/**
 * The environment every program Keel starts gets (commands, background jobs, the commands
 * it types into its terminal, local MCP servers): an allow-list of what programs and builds
 * need, plus the names the person allows in their own config, never the host's whole
 * environment, which holds the person's tokens and Keel's own key.
 */

/** What programs need to run at all, and to find the person's toolchains. */
export const childEnvBaseNames: readonly string[] = [
  // Finding programs, the person and their language.
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'COLORTERM', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'HOSTNAME',
  'NO_COLOR', 'FORCE_COLOR', 'CI',
  'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CONFIG_DIRS', 'XDG_DATA_DIRS',
  // Windows needs these to start most programs at all.
  'Path', 'PATHEXT', 'SystemRoot', 'SYSTEMROOT', 'SystemDrive', 'windir', 'ComSpec', 'COMSPEC', 'TEMP', 'TMP',
  'USERPROFILE', 'USERNAME', 'APPDATA', 'LOCALAPPDATA', 'HOMEDRIVE', 'HOMEPATH', 'ProgramFiles', 'ProgramData',
  'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE', 'OS',
  // Certificates and proxies, which installs behind a company network need (a proxy URL with a password is dropped below).
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  // Node.
  'NVM_DIR', 'NVM_BIN', 'NVM_INC', 'NODE_PATH', 'COREPACK_HOME', 'PNPM_HOME', 'BUN_INSTALL', 'VOLTA_HOME', 'FNM_DIR', 'DENO_DIR', 'DENO_INSTALL',
  // Python.
  'PYENV_ROOT', 'PYENV_VERSION', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'CONDA_DEFAULT_ENV', 'CONDA_EXE', 'PYTHONPATH', 'PIPX_HOME', 'POETRY_HOME', 'UV_CACHE_DIR',
  // Go.
  'GOPATH', 'GOROOT', 'GOBIN', 'GOCACHE', 'GOMODCACHE', 'GOFLAGS', 'GOPROXY', 'GOPRIVATE', 'GONOPROXY', 'GONOSUMDB', 'GO111MODULE', 'GOTOOLCHAIN', 'CGO_ENABLED',
  // Rust.
  'CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN', 'CARGO_TARGET_DIR', 'RUSTFLAGS',
  // JVM and Android.
  'JAVA_HOME', 'JDK_HOME', 'MAVEN_HOME', 'M2_HOME', 'GRADLE_HOME', 'GRADLE_USER_HOME', 'SDKMAN_DIR', 'KOTLIN_HOME',
  'ANDROID_HOME', 'ANDROID_SDK_ROOT', 'ANDROID_NDK_HOME',
  // Ruby, .NET, version managers, Homebrew, Flutter.
  'GEM_HOME', 'GEM_PATH', 'RBENV_ROOT', 'RBENV_VERSION', 'DOTNET_ROOT', 'DOTNET_CLI_TELEMETRY_OPTOUT', 'ASDF_DIR', 'ASDF_DATA_DIR', 'MISE_DATA_DIR',
  'HOMEBREW_PREFIX', 'HOMEBREW_CELLAR', 'HOMEBREW_REPOSITORY', 'FLUTTER_ROOT', 'PUB_CACHE',
  // C and C++ builds.
  'CC', 'CXX', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'PKG_CONFIG_PATH', 'LD_LIBRARY_PATH',
  // Who commits.
  'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL',
];
/** The locale family (LC_ALL, LC_CTYPE, …). */
const basePrefixes: readonly string[] = ['LC_'];

/**
 * Names that look like they hold a secret. A name on the base list never does; one the person
 * allows through a prefix (`NODE_*`) passes only when they name it exactly.
 */
const secretLooking = /KEY|TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|(^|_)AUTH(?!OR)|COOKIE|SESSION|^AWS_|^AZURE_|^GCP_|^GOOGLE_|_PAT$/i;

/** A value that carries a password in a URL (`https://user:pass@proxy`). */
const passwordInUrl = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

/** Names a shell can expand: the rest could not be passed to Keel's terminal either. */
const validName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ChildEnvPolicy {
  /**
   * What the person allows besides the base list (`shellEnv.allow`, their own layers only):
   * exact names, or a prefix ending in `*`.
   */
  allow: readonly string[];
  /** The variables Keel reads its own keys from: never passed, even when named. */
  keyNames: readonly string[];
}

export const noExtraEnv: ChildEnvPolicy = { allow: [], keyNames: [] };

/** Keel's own key variables: never in a child's environment. */
const keelKeyName = /^KEEL_.*API_KEY$|^OPENAI_API_KEY$/;

export function looksSecret(name: string): boolean {
  return secretLooking.test(name);
}

/** The environment a child gets from `host` under `policy`. */
export function childEnv(host: Readonly<Record<string, string | undefined>>, policy: ChildEnvPolicy): Record<string, string> {
  const exact = new Set(policy.allow.filter((a) => !a.endsWith('*')));
  const prefixes = [...basePrefixes, ...policy.allow.filter((a) => a.endsWith('*')).map((a) => a.slice(0, -1))];
  const base = new Set(childEnvBaseNames);
  const keyNames = new Set(policy.keyNames);
  const keyValues = new Set<string>();
  for (const [name, value] of Object.entries(host)) {
    if (value && value.length >= 8 && (keyNames.has(name) || keelKeyName.test(name))) keyValues.add(value);
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined || !validName.test(name)) continue;
    if (keyNames.has(name) || keelKeyName.test(name) || keyValues.has(value)) continue;
    // Exported shell functions (`() {...}`) are a known injection path; sudo drops them too.
    if (value.startsWith('()') || name.startsWith('BASH_FUNC_')) continue;
    const named = exact.has(name);
    const listed = base.has(name) || prefixes.some((p) => name.startsWith(p));
    if (!named && (!listed || looksSecret(name) || passwordInUrl.test(value))) continue;
    out[name] = value;
  }
  return out;
}

/** What is wrong with a `shellEnv.allow` entry, or undefined. */
export function allowEntryProblem(entry: string): string | undefined {
  const name = entry.endsWith('*') ? entry.slice(0, -1) : entry;
  if (!validName.test(name)) return `"${entry}" is not a variable name (letters, digits and _, optionally ending in *)`;
  if (entry.endsWith('*') && name.length < 2) return `"${entry}" would allow almost every variable; name a longer prefix`;
  return undefined;
}
