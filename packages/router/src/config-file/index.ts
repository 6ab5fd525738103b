/**
 * `@patchbay/router/config-file`: the config as a file on disk (Node only), for the apps that run a
 * router: read and validate it, and watch it for changes to reload.
 */

export {
  type CredentialEntry,
  type CredentialStore,
  deleteCredentials,
  openCredential,
  opensStoreCheck,
  openWithKey,
  readCredentialStore,
  replaceCredentials,
  type SealedValue,
  sealCredential,
  sealStoreCheck,
  sealWithKey,
  setCredential,
} from "./credential-store.js";
export {
  CREDENTIALS_KEY_VARIABLE,
  CredentialStoreError,
  parseCredentialsKey,
} from "./credentials-key.js";
export { loadConfigFile } from "./load-config-file.js";
export { type OpenAuditLogOptions, openAuditLog } from "./open-audit-log.js";
export {
  type CredentialStorePlace,
  credentialStorePlace,
  type WatchedCredentialStore,
  watchCredentialStore,
} from "./open-credential-store.js";
export {
  type ConfigFileWatch,
  type WatchConfigFileOptions,
  watchConfigFile,
} from "./watch-config-file.js";
