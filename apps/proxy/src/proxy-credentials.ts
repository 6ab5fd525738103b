import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { PrincipalValueStore } from "@patchbay/backend-transports";
import type { RedisCluster } from "@patchbay/cluster-redis";
import type { CredentialPlaces } from "@patchbay/dashboard";
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
 * The proxy's credential store: its file, or Redis when clustered; the dashboard reads where its
 * values are (never the values).
 */
export interface ProxyCredentials extends PrincipalValueStore, CredentialPlaces {
  close(): void;
}

/**
 * Where the config's credential store is and its key, checked before anything starts (a
 * per-principal backend or a `credentials` block without a usable key, or a store that key does
 * not open, stops the start); none for the demo or a config without either. A clustered proxy's
 * store is in Redis (its key is checked there, as the replica joins): the file is not read.
 */
export function proxyCredentialStore(
  configPath: string | undefined,
  config: GatewayConfig,
  environment: Readonly<Record<string, string | undefined>>,
  { clustered = false }: { readonly clustered?: boolean } = {},
): CredentialStorePlace | undefined {
  if (configPath === undefined) return undefined;
  const required = config.credentials !== undefined;
  const place = credentialStorePlace(config, resolve(configPath), environment, required);
  if (place !== undefined && !clustered) readCredentialStore(place.path, place.key);
  return place;
}

/**
 * The replicas' credential store in Redis (`patchbay-proxy credentials` writes there too); its
 * values read now (another key stops the start) and again after each write of another replica or
 * the CLI. `mask` learns its values each time they are read, and before each write.
 */
export async function openClusterCredentials(
  cluster: RedisCluster,
  place: CredentialStorePlace,
  log: ProxyLog,
  mask: (values: readonly string[]) => void,
): Promise<ProxyCredentials> {
  if (existsSync(place.path)) {
    log.warn(
      `credential store: ${place.path} is not read in a cluster (the store is in Redis): import it with \`patchbay-proxy credentials import\``,
    );
  }
  const store = await cluster.openCredentialStore(place.key, (error) =>
    log.error(`credential store: ${error.message}`),
  );
  mask(store.secretValues());
  store.onChanged((values) => {
    mask(store.secretValues());
    log.info(`credential store read again: ${values} values`);
  });
  return {
    valuesFor: (principal, backend) => store.valuesFor(principal, backend),
    async replace(principal, backend, values) {
      // Masked before they are stored: no log line can show a value the store holds.
      mask(Object.values(values));
      await store.replace(principal, backend, values);
    },
    withLock: (place, task) => store.withLock(place, task),
    places: () => store.list(),
    close: () => store.close(),
  };
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
