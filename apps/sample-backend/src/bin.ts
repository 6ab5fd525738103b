#!/usr/bin/env node
import { parseCliArguments, USAGE } from "./cli-arguments.js";
import { createSampleServer } from "./sample-server.js";
import { SAMPLE_BACKEND_VERSION } from "./version.js";

// Composition root only: parse arguments, build the one server definition, serve, stop on signals.
// stdout belongs to the protocol on stdio, so everything human goes to stderr, except what was
// asked for: --help and --version print to stdout and exit 0, as command-line tools do.
async function main(): Promise<void> {
  let options: ReturnType<typeof parseCliArguments>;
  try {
    options = parseCliArguments(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    process.stdout.write(`${SAMPLE_BACKEND_VERSION}\n`);
    return;
  }
  const server = createSampleServer({
    ...(options.stepDelayMs === undefined ? {} : { stepDelayMs: options.stepDelayMs }),
    ...(options.taskSecondMs === undefined ? {} : { taskSecondMs: options.taskSecondMs }),
    ...(options.protocolVersions === undefined
      ? {}
      : { protocolVersions: options.protocolVersions }),
  });
  // Each transport's module is loaded when served, so a stdio child (the most common, one per client
  // session behind a gateway) does not load the HTTP, SSE and WebSocket stacks at start-up.
  if (options.transport === "stdio") {
    const { serveStdio } = await import("./serve-stdio.js");
    const { closed } = await serveStdio(server);
    // stdin may still be open (the client did not close it): end the process once sessions closed.
    const stop = () => void server.close().finally(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    await closed;
    return;
  }
  const serve = {
    http: async () => (await import("./serve-http.js")).serveHttp,
    sse: async () => (await import("./serve-sse.js")).serveSse,
    ws: async () => (await import("./serve-ws.js")).serveWs,
  }[options.transport];
  const listener = await (await serve())(server, options.host, options.port);
  process.stderr.write(`patchbay-sample-backend listening on ${listener.url.href}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      void listener.close().then(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/**
 * One line for a port taken by another process; else the error with its stack. (transport-http is
 * loaded here, on failure only: a stdio child does not load it at start-up.)
 */
async function describeFailure(error: unknown): Promise<string> {
  const { portInUseMessage } = await import("@patchbay/transport-http");
  const portInUse = portInUseMessage(error);
  if (portInUse !== undefined) return portInUse;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main().catch(async (error: unknown) => {
  process.stderr.write(`patchbay-sample-backend: ${await describeFailure(error)}\n`);
  process.exit(1);
});
