import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type BackendConfig, connectsPerPrincipal, credentialSlotsOf } from "@patchbay/router";
import {
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
credentials.file, sealed with the key in PATCHBAY_CREDENTIALS_KEY). Values are read from stdin,
never from the command line, and are never printed.

Commands:
  set <principal> <backend> <slot>       store the value read from stdin
  list                                   principals, backends and slots stored (no values)
  delete <principal> <backend> [<slot>]  delete one slot's value, or all of the backend's
`;

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
    options: { config: { type: "string", short: "c" }, help: { type: "boolean", short: "h" } },
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
  const { config } = await loadConfigFile(configPath, io.environment);
  const place = credentialStorePlace(
    config,
    configPath,
    io.environment,
    true,
  ) as CredentialStorePlace;
  switch (command) {
    case "set":
      return await setCommand(rest, config.backends, place, io);
    case "list":
      return listCommand(rest, place, io);
    case "delete":
      return deleteCommand(rest, place, io);
    default:
      throw new UsageError(`unknown command ${command}: set, list or delete`);
  }
}

async function setCommand(
  args: readonly string[],
  backends: readonly BackendConfig[],
  place: CredentialStorePlace,
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
  setCredential(place.path, place.key, { principal, backend: backendName, slot }, value);
  io.write(`stored ${slot} of ${backendName} for ${principal}\n`);
  return 0;
}

function listCommand(
  args: readonly string[],
  place: CredentialStorePlace,
  io: CredentialsCommandIo,
) {
  if (args.length > 0) throw new UsageError("list takes no arguments");
  for (const entry of readCredentialStore(place.path, place.key).list()) {
    io.write(`${entry.principal}\t${entry.backend}\t${entry.slot}\n`);
  }
  return 0;
}

function deleteCommand(
  args: readonly string[],
  place: CredentialStorePlace,
  io: CredentialsCommandIo,
): number {
  const [principal, backend, slot, extra] = args;
  if (principal === undefined || backend === undefined || extra !== undefined) {
    throw new UsageError("delete takes <principal> <backend> [<slot>]");
  }
  const deleted = deleteCredentials(place.path, place.key, {
    principal,
    backend,
    ...(slot === undefined ? {} : { slot }),
  });
  io.write(`deleted ${deleted} value${deleted === 1 ? "" : "s"} of ${backend} for ${principal}\n`);
  return deleted === 0 ? 1 : 0;
}
