/*
 * The one place that imports google-auth-library (Application Default Credentials), for Keel's
 * own Vertex Gemini wire. Loaded only when a model of a `vertex` provider without an express-mode
 * key first streams (see googleAuth.ts); the production build makes it `dist/googleAuthSdk.js`.
 */
export { GoogleAuth } from 'google-auth-library';
