export {
  BackendSignInUnsupportedError,
  type BackendTransportFactoryOptions,
  createBackendTransportFactory,
  signInIssues,
} from "./backend-transport-factory.js";
export { type BackendOAuthOptions, createBackendOAuthFetch } from "./oauth/backend-oauth.js";
export { type FileLockOptions, FileLockTimeoutError } from "./oauth/file-lock.js";
export { type SignInOptions, signInToBackend } from "./oauth/sign-in.js";
export { createFileTokenStore, oauthTokenFile, userConfigDirectory } from "./oauth/token-file.js";
