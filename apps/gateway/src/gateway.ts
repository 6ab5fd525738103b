import { dirname, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { createBackendTransportFactory, userConfigDirectory } from "@patchbay/backend-transports";
import {
  collectConfigSecrets,
  createBackendLogSink,
  createRouter,
  type GatewayConfig,
  GatewayConfigError,
  type Router,
  type TelemetryConfig,
} from "@patchbay/router";
import { loadConfigFile, openAuditLog, watchConfigFile } from "@patchbay/router/config-file";
import { createFilePinStore, pinFileOf } from "@patchbay/router/pins-file";
import {
  redact as builtInRedact,
  createJsonLinesFileSink,
  createTelemetry,
  type EventSink,
  loadOpenTelemetryBridge,
  type OpenTelemetryBridge,
  type Redact,
  startOtlpExporter,
} from "@patchbay/telemetry";
import { createStdioServerTransport } from "@patchbay/transport-stdio";
import { createRedactingLogger, type Logger } from "./logger.js";
import { PROXY_ONLY_BLOCKS } from "./proxy-blocks.js";

/** Options of `startGateway`. */
export interface GatewayOptions {
  /** The config file (JSON or YAML). */
  readonly configPath: string;
  readonly logger: Logger;
  /** Where `${VAR}` come from; default `process.env`. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The client's side of the protocol; default this process's stdin and stdout. */
  readonly input?: Readable;
  readonly output?: Writable;
  /** Watch the config file and apply changes without a restart; default true. */
  readonly watchConfig?: boolean;
  /** The gateway's name and version as clients see them. */
  readonly version: string;
  /** Where the OAuth token files are; default `userConfigDirectory(environment)`. */
  readonly tokenDirectory?: string;
}

/** A running gateway. */
export interface RunningGateway {
  readonly router: Router;
  /** Resolves when the client closed stdin or `stop()` finished. */
  readonly stopped: Promise<void>;
  /** Stops every backend (stdin close, SIGTERM, SIGKILL) and the client connection. */
  stop(): Promise<void>;
}

// The CLI prints what startup failed with: mask it like every other line.
function throwMasked(error: unknown, redact: Redact): never {
  if (error instanceof Error) {
    error.message = redact(error.message);
    if (error.stack !== undefined) error.stack = redact(error.stack);
  }
  throw error;
}

/**
 * Where spans go: an OTLP exporter when `telemetry.otlp` is set (flushed when the telemetry closes),
 * a globally registered SDK when `openTelemetry` is true and one is installed, else nowhere (nothing
 * is loaded).
 */
async function openTelemetryOf(
  config: TelemetryConfig,
  version: string,
): Promise<OpenTelemetryBridge | undefined> {
  if (config.otlp !== undefined) {
    const exporter = await startOtlpExporter(config.otlp, {
      defaultServiceName: "patchbay-gateway",
      serviceVersion: version,
    });
    return exporter.bridge;
  }
  return config.openTelemetry ? await loadOpenTelemetryBridge() : undefined;
}

/** Reads the config, starts the backends and serves one client over stdio. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const environment = options.environment ?? process.env;
  const configPath = resolve(options.configPath);
  const parsed = await loadConfigFile(configPath, environment, { ignoreBlocks: PROXY_ONLY_BLOCKS });
  const config: GatewayConfig = parsed.config;
  // Every line passes the telemetry's redaction, which learns the config's secrets below.
  let redact: Redact = builtInRedact;
  const logger = createRedactingLogger(options.logger, (text) => redact(text));
  const sinks: EventSink[] = [createBackendLogSink(logger)];
  if (config.telemetry.eventsFile !== undefined) {
    sinks.push(
      createJsonLinesFileSink({
        path: resolve(dirname(configPath), config.telemetry.eventsFile),
        ...(config.telemetry.maxFileBytes === undefined
          ? {}
          : { maxBytes: config.telemetry.maxFileBytes }),
      }),
    );
  }
  const openTelemetry = await openTelemetryOf(config.telemetry, options.version);
  const telemetry = createTelemetry({
    source: "gateway",
    ...(config.telemetry.bufferSize === undefined ? {} : { capacity: config.telemetry.bufferSize }),
    sinks,
    ...(openTelemetry === undefined ? {} : { openTelemetry }),
    onSinkError: (error) => logger.warn(`event sink failed: ${String(error)}`),
  });
  telemetry.addSecrets(collectConfigSecrets(config));
  redact = telemetry.redact;
  for (const warning of parsed.warnings) logger.warn(warning);
  // No stdout here: it carries the protocol, so `audit.file: "-"` is refused.
  const audit = openAuditLog(config.audit, {
    configPath,
    redact,
    onError: (error) => logger.warn(`audit log write failed: ${String(error)}`),
  });
  const router = createRouter({
    config,
    // A child's stderr goes to the gateway's log (stdout carries only the protocol).
    connect: createBackendTransportFactory({
      onStderr: (backend, line) => logger.info(`[${backend}] ${line}`),
      oauth: {
        directory: options.tokenDirectory ?? userConfigDirectory(environment),
        signInHint: (backend) => `run: patchbay-gateway login ${backend} --config ${configPath}`,
      },
    }),
    serverInfo: { name: "patchbay-gateway", version: options.version },
    telemetry,
    onWarning: (message) => logger.warn(message),
    startBackends: "with-first-client",
    ...(audit === undefined ? {} : { audit }),
    clientNetworkTransport: "pipe",
    pinStore: createFilePinStore(pinFileOf(configPath, config.pins)),
  });
  // Backends start when the client has sent initialize, so they are initialized with its protocol
  // version and capabilities; conflictPolicy "error" starts them first, to refuse before serving.
  const starting = router.start();
  if (config.conflictPolicy === "error")
    await starting.catch((error) => throwMasked(error, redact));
  else
    starting.catch((error: unknown) => logger.error(`starting backends failed: ${String(error)}`));

  let stopping: Promise<void> | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolvePromise) => {
    resolveStopped = resolvePromise;
  });
  const watcher = options.watchConfig === false ? undefined : watchConfig();
  // `patchbay-gateway pins approve` edits the pin file: what it approves is served at once.
  const pinWatcher = options.watchConfig === false ? undefined : watchPins();

  function watchPins() {
    return watchConfigFile(
      pinFileOf(configPath, config.pins),
      () =>
        router.pins
          .load()
          .catch((error: unknown) => logger.error(`reading the pins failed: ${String(error)}`)),
      { onError: (error) => logger.warn(`cannot watch the pin file: ${error.message}`) },
    );
  }

  function watchConfig() {
    return watchConfigFile(configPath, reload, {
      onError: (error) => logger.warn(`cannot watch the config: ${error.message}`),
    });
  }

  async function reload(): Promise<void> {
    if (stopping) return;
    try {
      const next = await loadConfigFile(configPath, environment, {
        ignoreBlocks: PROXY_ONLY_BLOCKS,
      });
      if (JSON.stringify(next.config) === JSON.stringify(router.config)) return;
      for (const warning of next.warnings) logger.warn(warning);
      await router.reload(next.config);
    } catch (error) {
      logger.error(
        error instanceof GatewayConfigError
          ? `${error.message}\nkeeping the previous config`
          : `reloading the config failed: ${String(error)}`,
      );
    }
  }

  function stop(): Promise<void> {
    stopping ??= (async () => {
      watcher?.close();
      pinWatcher?.close();
      await router.close();
      await audit?.flush();
      await telemetry.close();
      resolveStopped();
    })();
    return stopping;
  }

  const transport = createStdioServerTransport({
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.output === undefined ? {} : { output: options.output }),
  });
  transport.onClose(() => {
    void stop();
  });
  await router.serve(transport);
  return { router, stopped, stop };
}
