import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { PROXY_CONFIG_BLOCKS, type ProxyConfig } from "@patchbay/http-gateway";
import { type BackendConfig, connectsPerPrincipal, credentialSlotsOf } from "@patchbay/router";
import {
  type CredentialEntry,
  type CredentialStorePlace,
  credentialStorePlace,
  deleteCredentials,
  loadConfigFile,
  readCredentialStore,
  setCredential,
} from "@patchbay/router/config-file";

/** The `credentials` subcommand's help. */
export const credentialsHelp = `Usage: patchbay-proxy credentials <command> --config <file> …

Manages the per-principal credentials of the proxy's credential store (the config's
credentials.file, sealed with the key in PATCHBAY_CREDENTIALS_KEY; with a cluster block, or
--redis, the replicas' store in Redis instead, writes announced to them with the cluster secret).
Values are read from stdin, never from the command line, and are never printed.

Commands:
  set <principal> <backend> <slot>       store the value read from stdin
  list                                   principals, backends and slots stored (no values)
  delete <principal> <backend> [<slot>]  delete one slot's value, or all of the backend's
  import                                 (cluster) copy the values of credentials.file into Redis

Options:
  --config <file>   the proxy's config (required)
  --redis <url>     the cluster's Redis (overrides the config's cluster.redis)
`;

/** Where a command reads and writes: the store's file, or the replicas' store in Redis. */
interface StoreAccess {
  list(): Promise<CredentialEntry[]>;
  set(entry: CredentialEntry, value: string): Promise<void>;
  delete(place: { principal: string; backend: string; slot?: string }): Promise<number>;
  close(): Promise<void>;
}

/** A command line that cannot be run (exit code 2). */
export class UsageError extends Error {}

/** What a subcommand reads and writes: its streams and environment. */
export interface CredentialsCommandIo {
  readonly environment: Readonly<Record<string, string | undefined>>;
  readStdin(): Promise<string>;
  write(text: string): void;
}

/** Runs `patchbay-proxy credentials …`; resolves with the exit code (errors are thrown). */
export async function runCredentialsCommand(
  argv: readonly string[],
  io: CredentialsCommandIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      config: { type: "string", short: "c" },
      redis: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
    strict: true,
  });
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined) {
    io.write(credentialsHelp);
    return command === undefined && values.help !== true ? 2 : 0;
  }
  if (typeof values.config !== "string") throw new UsageError("--config <file> is required");
  const configPath = resolve(values.config);
  const { config } = await loadConfigFile(configPath, io.environment, {
    blocks: PROXY_CONFIG_BLOCKS,
  });
  const place = credentialStorePlace(
    config,
    configPath,
    io.environment,
    true,
  ) as CredentialStorePlace;
  if (!["set", "list", "delete", "import"].includes(command)) {
    throw new UsageError(`unknown command ${command}: set, list, delete or import`);
  }
  const redis = values.redis ?? config.cluster?.redis;
  if (command === "import" && redis === undefined) {
    throw new UsageError(
      "import copies the file into a cluster's Redis: the config has no cluster",
    );
  }
  const store =
    redis === undefined ? fileStore(place) : await redisStore(config, redis, place, io.environment);
  try {
    switch (command) {
      case "set":
        return await setCommand(rest, config.backends, store, io);
      case "list":
        return await listCommand(rest, store, io);
      case "import":
        return await importCommand(rest, place, store, io);
      default:
        return await deleteCommand(rest, store, io);
    }
  } finally {
    await store.close();
  }
}

function fileStore(place: CredentialStorePlace): StoreAccess {
  return {
    list: async () => readCredentialStore(place.path, place.key).list(),
    set: async (entry, value) => setCredential(place.path, place.key, entry, value),
    delete: async (where) => deleteCredentials(place.path, place.key, where),
    close: async () => {},
  };
}

/** The replicas' store: the same Redis, prefix and cluster secret as the proxy's `cluster`. */
async function redisStore(
  config: ProxyConfig,
  url: string,
  place: CredentialStorePlace,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<StoreAccess> {
  const { connectRedisCredentialStore } = await import("@patchbay/cluster-redis");
  const { store, close } = await connectRedisCredentialStore({
    url,
    secret: config.cluster?.secret ?? environment.PATCHBAY_CLUSTER_SECRET ?? "",
    previousSecrets: config.cluster?.previousSecrets,
    key: place.key,
  });
  return {
    list: async () => store.list(),
    set: (entry, value) => store.set(entry, value),
    delete: (where) => store.delete(where),
    close,
  };
}

/** Copies every value of the store's file into Redis (replacing the values of the same slots). */
async function importCommand(
  args: readonly string[],
  place: CredentialStorePlace,
  store: StoreAccess,
  io: CredentialsCommandIo,
): Promise<number> {
  if (args.length > 0) throw new UsageError("import takes no arguments");
  const file = readCredentialStore(place.path, place.key);
  const entries = file.list();
  for (const entry of entries) {
    const value = file.valuesFor(entry.principal, entry.backend)?.[entry.slot];
    if (value !== undefined) await store.set(entry, value);
  }
  io.write(
    `imported ${entries.length} value${entries.length === 1 ? "" : "s"} from ${place.path}\n`,
  );
  return 0;
}

async function setCommand(
  args: readonly string[],
  backends: readonly BackendConfig[],
  store: StoreAccess,
  io: CredentialsCommandIo,
): Promise<number> {
  const [principal, backendName, slot, extra] = args;
  if (principal === undefined || backendName === undefined || slot === undefined || extra) {
    throw new UsageError("set takes <principal> <backend> <slot>, and the value on stdin");
  }
  if (principal === "anonymous") throw new UsageError("anonymous callers never use credentials");
  const backend = backends.find((candidate) => candidate.name === backendName);
  if (backend?.isolation !== "per-principal") {
    throw new UsageError(`${backendName} is not a per-principal backend of this config`);
  }
  if (connectsPerPrincipal(backend)) {
    throw new UsageError(
      `${backendName} signs in with OAuth: each principal connects on the link a call to one of its tools gives (credentials delete disconnects one)`,
    );
  }
  const slots = credentialSlotsOf(backend);
  if (!slots.includes(slot)) {
    throw new UsageError(`${backendName} has no slot ${slot} (its slots: ${slots.join(", ")})`);
  }
  // One trailing line end is how `echo` and a terminal end a value; it is not part of it.
  const value = (await io.readStdin()).replace(/\r?\n$/, "");
  if (value === "") throw new UsageError("no value on stdin");
  await store.set({ principal, backend: backendName, slot }, value);
  io.write(`stored ${slot} of ${backendName} for ${principal}\n`);
  return 0;
}

async function listCommand(args: readonly string[], store: StoreAccess, io: CredentialsCommandIo) {
  if (args.length > 0) throw new UsageError("list takes no arguments");
  for (const entry of await store.list()) {
    io.write(`${entry.principal}\t${entry.backend}\t${entry.slot}\n`);
  }
  return 0;
}

async function deleteCommand(
  args: readonly string[],
  store: StoreAccess,
  io: CredentialsCommandIo,
): Promise<number> {
  const [principal, backend, slot, extra] = args;
  if (principal === undefined || backend === undefined || extra !== undefined) {
    throw new UsageError("delete takes <principal> <backend> [<slot>]");
  }
  const deleted = await store.delete({
    principal,
    backend,
    ...(slot === undefined ? {} : { slot }),
  });
  io.write(`deleted ${deleted} value${deleted === 1 ? "" : "s"} of ${backend} for ${principal}\n`);
  return deleted === 0 ? 1 : 0;
}
