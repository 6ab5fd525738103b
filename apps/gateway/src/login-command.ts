import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { oauthTokenFile, signInToBackend, userConfigDirectory } from "@patchbay/backend-transports";
import type { RemoteBackendConfig } from "@patchbay/router";
import { loadConfigFile } from "@patchbay/router/config-file";
import { PROXY_ONLY_BLOCKS } from "./proxy-blocks.js";

/** The help of `patchbay-gateway login`. */
export const loginHelp = `Usage: patchbay-gateway login <backend> [--config <file>] [--no-browser] [--timeout <seconds>]

Signs in to the remote backend <backend> of <file> (default ~/.config/patchbay/gateway.json), whose
entry has an "oauth" block: prints the authorization URL, opens a browser (not with --no-browser
or PATCHBAY_NO_BROWSER=1), waits for it to come back to 127.0.0.1 (at most --timeout seconds,
default 300), and keeps the tokens in ~/.config/patchbay/oauth/ (mode 0600), where a running
gateway reads them.
`;

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** What `login` may read and start: the environment and the browser opener. */
export interface LoginEnvironment {
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Opens `url` in the person's browser; default the platform's opener, errors ignored. */
  readonly openBrowser?: (url: string) => void;
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      config: { type: "string", short: "c" },
      "no-browser": { type: "boolean" },
      timeout: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
}

/** The platform's way to open a URL; a failure (no browser here) leaves the printed URL. */
function openWithPlatform(url: string): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", '""', url]
        : ["xdg-open", url];
  const child = spawn(command as string, args, { detached: true, stdio: "ignore" });
  child.on("error", () => {});
  child.unref();
}

/** The backend `name` of the config, if it is a remote one that signs in with OAuth. */
function oauthBackendOf(
  backends: readonly { readonly name: string }[],
  name: string,
): RemoteBackendConfig | string {
  const backend = backends.find((candidate) => candidate.name === name) as
    | RemoteBackendConfig
    | undefined;
  if (backend === undefined) return `no backend "${name}" in the config`;
  if (backend.oauth === undefined) return `backend "${name}" has no "oauth" block`;
  return backend;
}

/** Runs `patchbay-gateway login ...` (`args` after `login`); returns the exit code. */
export async function runLoginCommand(
  args: readonly string[],
  output: Output,
  context: LoginEnvironment,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    output.err(`patchbay-gateway login: ${(error as Error).message}\n\n${loginHelp}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const timeoutSeconds = values.timeout === undefined ? 300 : Number(values.timeout);
  if (positionals.length !== 1 || !(timeoutSeconds > 0)) {
    output.err(`patchbay-gateway login: expected one backend name\n\n${loginHelp}`);
    return 2;
  }
  const name = positionals[0] as string;
  const directory = userConfigDirectory(context.environment);
  const configPath = resolve(values.config ?? join(directory, "gateway.json"));
  const { config } = await loadConfigFile(configPath, context.environment, {
    ignoreBlocks: PROXY_ONLY_BLOCKS,
  });
  const backend = oauthBackendOf(config.backends, name);
  if (typeof backend === "string") {
    output.err(`patchbay-gateway login: ${backend}\n`);
    return 1;
  }
  const browser =
    values["no-browser"] === true || context.environment.PATCHBAY_NO_BROWSER === "1"
      ? undefined
      : (context.openBrowser ?? openWithPlatform);
  await signInToBackend(backend, {
    directory,
    timeoutMs: timeoutSeconds * 1000,
    onAuthorizationUrl: (url) => {
      output.err(`To sign in to backend "${name}", open this URL in a browser:\n${url.href}\n`);
      browser?.(url.href);
    },
  });
  const file = oauthTokenFile(directory, backend.name, backend.url);
  output.out(`signed in to backend "${name}"; tokens kept in ${file}\n`);
  return 0;
}
