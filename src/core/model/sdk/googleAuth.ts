import { importSdk } from './sdkLoader';

type GoogleAuthSdk = typeof import('./googleAuthSdk');

/** What Vertex AI's API asks of a token. */
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

let tokens: Promise<() => Promise<string | null | undefined>> | undefined;

/** The library's token source, built once per process; it keeps the token and refreshes it. */
function tokenSource(): Promise<() => Promise<string | null | undefined>> {
  tokens ??= importSdk<GoogleAuthSdk>('googleAuthSdk').then(({ GoogleAuth }) => {
    const auth = new GoogleAuth({ scopes: [CLOUD_PLATFORM] });
    return async () => (await (await auth.getClient()).getAccessToken()).token;
  });
  // A failed load is tried again on the next call.
  tokens.catch(() => (tokens = undefined));
  return tokens;
}

/**
 * The `authorization` header of the person's Application Default Credentials (`gcloud auth
 * application-default login`, a service account file in GOOGLE_APPLICATION_CREDENTIALS, or the
 * metadata server on Google Cloud), never a workspace's. google-auth-library loads on first use.
 * A failure says what Vertex needs; its cause stays (a network failure is retried as one).
 */
export async function adcHeaders(): Promise<Record<string, string>> {
  let token: string | null | undefined;
  try {
    token = await (await tokenSource())();
  } catch (err) {
    const said = err instanceof Error ? err.message : String(err);
    throw new Error(
      `Vertex AI needs Application Default Credentials (gcloud auth application-default login, a service account file in GOOGLE_APPLICATION_CREDENTIALS, or Google Cloud's metadata server): ${said}`,
      { cause: err },
    );
  }
  if (!token) throw new Error('Vertex AI needs Application Default Credentials: they gave no access token.');
  return { authorization: `Bearer ${token}` };
}
