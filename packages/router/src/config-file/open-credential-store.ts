/// <reference types="node" />
// Node only: the proxy's credential store, read at start and again whenever its file changes.
import { dirname, resolve } from "node:path";
import type { PrincipalCredentials } from "../backends/principal-backends.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import {
  type CredentialEntry,
  type CredentialStore,
  readCredentialStore,
  replaceCredentials,
} from "./credential-store.js";
import {
  CREDENTIALS_KEY_VARIABLE,
  CredentialStoreError,
  parseCredentialsKey,
} from "./credentials-key.js";
import { watchConfigFile } from "./watch-config-file.js";

/** Where a config's credential store is, and the key it is sealed with. */
export interface CredentialStorePlace {
  readonly path: string;
  readonly key: Buffer;
}

/**
 * The credential store of `config` (its `credentials.file`, relative to the config file's folder)
 * and its key (`PATCHBAY_CREDENTIALS_KEY` of `environment`); `undefined` when the config has no
 * per-principal backend and `required` is false. Fails closed: a per-principal backend without a
 * `credentials.file`, or a missing or weak key, is a `CredentialStoreError`.
 */
export function credentialStorePlace(
  config: GatewayConfig,
  configPath: string,
  environment: Readonly<Record<string, string | undefined>>,
  required = false,
): CredentialStorePlace | undefined {
  const perPrincipal = config.backends.find((backend) => backend.isolation === "per-principal");
  if (perPrincipal === undefined && !required) return undefined;
  if (config.credentials === undefined) {
    const why =
      perPrincipal === undefined
        ? "the config has no credential store"
        : `mcpServers.${perPrincipal.name} is per-principal, but the config has no credential store`;
    throw new CredentialStoreError(`${why}: add "credentials": { "file": "credentials.json" }`);
  }
  return {
    path: resolve(dirname(configPath), config.credentials.file),
    key: parseCredentialsKey(environment[CREDENTIALS_KEY_VARIABLE]),
  };
}

/** The store's values for the router, kept current; `close()` stops watching its file. */
export interface WatchedCredentialStore extends PrincipalCredentials {
  /**
   * Writes `values` as every value of `principal` for `backend` (none deletes them), seen by
   * `valuesFor` at once (the proxy's own writes: OAuth tokens of a connect or a refresh).
   */
  replace(principal: string, backend: string, values: Readonly<Record<string, string>>): void;
  /** Every stored value's place now, sorted (principals, backends, slots; never values). */
  places(): CredentialEntry[];
  close(): void;
}

/**
 * Reads the store at `place` (a file that cannot be opened with its key throws: the start fails)
 * and reads it again after each change of its file (then `onReread`); a change that cannot be
 * read is reported to `onError` and the values read before stay.
 */
export function watchCredentialStore(
  place: CredentialStorePlace,
  options: {
    readonly onError: (error: Error) => void;
    /** The file was read again after a change: how many values it holds now. */
    readonly onReread?: (values: number) => void;
    /** Every value, each time the file is read (the first time included): for masking only. */
    readonly onValues?: (values: readonly string[]) => void;
    readonly debounceMs?: number;
  },
): WatchedCredentialStore {
  let store: CredentialStore = readCredentialStore(place.path, place.key);
  options.onValues?.(store.secretValues());
  const replace = (
    principal: string,
    backend: string,
    values: Readonly<Record<string, string>>,
  ) => {
    // Masked before they are stored: no log line can show a value the store holds.
    options.onValues?.(Object.values(values));
    replaceCredentials(place.path, place.key, { principal, backend }, values);
    store = readCredentialStore(place.path, place.key);
  };
  const watch = watchConfigFile(
    place.path,
    () => {
      try {
        store = readCredentialStore(place.path, place.key);
        options.onValues?.(store.secretValues());
        options.onReread?.(store.list().length);
      } catch (error) {
        options.onError(error as Error);
      }
    },
    {
      onError: options.onError,
      ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    },
  );
  return {
    valuesFor: (principal, backend) => store.valuesFor(principal, backend),
    replace,
    places: () => store.list(),
    close: () => watch.close(),
  };
}
