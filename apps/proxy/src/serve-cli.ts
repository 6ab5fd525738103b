import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  AuthRequiredError,
  OAuthConfigError,
  OAuthDiscoveryError,
  OAuthFetchError,
} from "@patchbay/http-gateway";
import { GatewayConfigError } from "@patchbay/router";
import { portInUseMessage } from "@patchbay/transport-http";
import { startProxy } from "./proxy.js";

const version = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

const help = `Usage: patchbay-proxy [--config <file>] [--host 127.0.0.1] [--port 8080] [--redis <url>]
       patchbay-proxy credentials set|list|delete|import --config <file> … (see credentials --help)

Serves the MCP servers listed in <file> (JSON, JSON with comments, or YAML), aggregated under
namespaced names, over HTTP to many clients: Streamable HTTP at /mcp and /mcp/<profile>, legacy
SSE at /sse and /sse/<profile>, WebSocket at /ws and /ws/<profile>, /healthz, /readyz and /metrics,
and a live dashboard at /dashboard. Without --config it serves a demo (the sample backend).

Options:
  -c, --config <file>          the proxy config (mcpServers, profiles, auth, limits, http)
      --host <address>         address to bind (default 127.0.0.1)
  -p, --port <n>               port (default $PORT or 8080; 0 picks a free one)
      --watch                  reload the config whenever its file changes (SIGHUP reloads it too)
      --log-format <format>    json | pretty (default pretty); logs go to stderr
      --drain-timeout-ms <n>   on SIGTERM/SIGINT, how long in-flight calls may finish (default 10000)
      --redis <url>            share sessions, events and rate limits with other replicas through
                               this Redis (redis://host:port, rediss://…, unix:///path); overrides
                               the config's cluster.redis
      --replica-id <id>        this replica's name in Redis, logs and metrics (default
                               <hostname>-<pid>); overrides the config's cluster.replicaId
  -h, --help                   show this help
  -v, --version                show the version
`;

function fail(message: string): number {
  process.stderr.write(`patchbay-proxy: ${message}\n\n${help}`);
  return 2;
}

/** `patchbay-proxy [options]`: serves until SIGTERM or SIGINT; resolves with the exit code. */
export async function serveMain(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: "string", short: "c" },
        host: { type: "string" },
        port: { type: "string", short: "p" },
        "log-format": { type: "string" },
        "drain-timeout-ms": { type: "string" },
        redis: { type: "string" },
        "replica-id": { type: "string" },
        watch: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    return fail("--port must be 0 to 65535");
  const logFormat = values["log-format"] ?? "pretty";
  if (logFormat !== "json" && logFormat !== "pretty")
    return fail("--log-format must be json or pretty");
  const drainTimeoutMs = Number(values["drain-timeout-ms"] ?? 10_000);
  if (!Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 0) {
    return fail("--drain-timeout-ms must be a whole number of milliseconds");
  }
  if (
    typeof values.redis === "string" &&
    !/^(rediss?:\/\/\S+|unix:\/\/\/\S+)$/.test(values.redis)
  ) {
    return fail("--redis must be redis://host:port, rediss://… or unix:///path");
  }
  if (values.watch === true && typeof values.config !== "string") {
    return fail("--watch needs --config <file> (the demo has no file to watch)");
  }
  const replicaId = values["replica-id"];
  if (typeof replicaId === "string" && !/^[A-Za-z0-9_.-]{1,64}$/.test(replicaId)) {
    return fail("--replica-id may only contain [A-Za-z0-9_.-], 1 to 64 characters");
  }
  try {
    const proxy = await startProxy({
      ...(typeof values.redis === "string" ? { redis: values.redis } : {}),
      ...(typeof replicaId === "string" ? { replicaId } : {}),
      ...(typeof values.config === "string" ? { configPath: values.config } : {}),
      ...(typeof values.host === "string" ? { host: values.host } : {}),
      port,
      logFormat,
      version,
      watchConfig: values.watch === true,
    });
    // SIGHUP: read the config file again (a bad one is refused, logged, and the old one serves).
    process.on("SIGHUP", () => {
      proxy.log.info("SIGHUP: reloading the config");
      void proxy.reload();
    });
    await new Promise<void>((resolve) => {
      let signalled = false;
      const onSignal = (signal: string) => {
        // A second signal forces the exit.
        if (signalled) process.exit(1);
        signalled = true;
        proxy.log.info(`${signal}: draining (up to ${drainTimeoutMs} ms), then stopping`);
        void proxy.stop({ drainTimeoutMs }).then(resolve);
      };
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
    });
    proxy.log.info("stopped");
    return 0;
  } catch (error) {
    process.stderr.write(`patchbay-proxy: ${describeStartFailure(error)}\n`);
    return 1;
  }
}

/** One clear line for the failures an operator fixes (config, auth, Redis, a port in use); else the stack. */
function describeStartFailure(error: unknown): string {
  const portInUse = portInUseMessage(error);
  if (portInUse !== undefined) return portInUse;
  const { code } = (error ?? {}) as { code?: unknown };
  const known =
    error instanceof GatewayConfigError ||
    // From @patchbay/router/config-file: a store or key that cannot be used.
    code === "CREDENTIAL_STORE" ||
    error instanceof AuthRequiredError ||
    error instanceof OAuthConfigError ||
    error instanceof OAuthDiscoveryError ||
    error instanceof OAuthFetchError ||
    // From @patchbay/cluster-redis, which is loaded only with a cluster: matched by its code.
    code === "REDIS_UNREACHABLE" ||
    code === "CLUSTER_SECRET";
  return known ? (error as Error).message : String((error as Error).stack ?? error);
}
