export {
  BackendSignInUnsupportedError,
  type BackendTransportFactoryOptions,
  createBackendTransportFactory,
  type PrincipalOAuthOptions,
  signInIssues,
} from "./backend-transport-factory.js";
export { type BackendOAuthOptions, createBackendOAuthFetch } from "./oauth/backend-oauth.js";
export {
  type ConnectFlowStore,
  type ConnectLinkRecord,
  createMemoryConnectFlowStore,
  type SignInOutcome,
  type SpentSignIn,
} from "./oauth/connect-flow-store.js";
export { type FileLockOptions, FileLockTimeoutError } from "./oauth/file-lock.js";
export {
  createPrincipalConnect,
  type PrincipalConnect,
  type PrincipalConnectOptions,
  type PrincipalValueStore,
} from "./oauth/principal-connect.js";
export { type SignInOptions, signInToBackend } from "./oauth/sign-in.js";
export { createFileTokenStore, oauthTokenFile, userConfigDirectory } from "./oauth/token-file.js";
export {
  createPrincipalValues,
  type PrincipalValues,
  type PrincipalValuesOptions,
} from "./user-values/principal-values.js";
