import { resolve } from "node:path";
import type { GatewayConfig } from "@patchbay/router";
import {
  type CredentialStorePlace,
  credentialStorePlace,
  readCredentialStore,
  type WatchedCredentialStore,
  watchCredentialStore,
} from "@patchbay/router/config-file";
import type { ProxyLog } from "./proxy-log.js";

/**
 * Where the config's credential store is and its key, checked before anything starts (a
 * per-principal backend or a `credentials` block without a usable key, or a store that key does
 * not open, stops the start); none for the demo or a config without either.
 */
export function proxyCredentialStore(
  configPath: string | undefined,
  config: GatewayConfig,
  environment: Readonly<Record<string, string | undefined>>,
): CredentialStorePlace | undefined {
  if (configPath === undefined) return undefined;
  const required = config.credentials !== undefined;
  const place = credentialStorePlace(config, resolve(configPath), environment, required);
  if (place !== undefined) readCredentialStore(place.path, place.key);
  return place;
}

/**
 * The store read now (a wrong key or a changed file throws) and again when its file changes;
 * `mask` learns its values each time it is read.
 */
export function watchProxyCredentials(
  place: CredentialStorePlace | undefined,
  log: ProxyLog,
  mask: (values: readonly string[]) => void,
): WatchedCredentialStore | undefined {
  if (place === undefined) return undefined;
  return watchCredentialStore(place, {
    onError: (error) => log.error(`credential store: ${error.message}`),
    onValues: mask,
    onReread: (values) => log.info(`credential store read again: ${values} values`),
  });
}
