import type { Implementation } from "@patchbay/client";
import {
  type Connection,
  ErrorCode,
  type FrameInfo,
  JSONRPCError,
  type RequestHandler,
} from "@patchbay/jsonrpc-core";
import { initializedAliasNotification } from "@patchbay/mcp-types";
import { acceptInitialize } from "@patchbay/server";
import type { RouterState } from "../router/router-state.js";
import { offersTasksExtension } from "../tasks/legacy-modern-bridge.js";
import { LEGACY_TASKS_CAPABILITY, offersLegacyTasks } from "../tasks/legacy-tasks.js";
import { combineInstructions } from "./combined-instructions.js";
import { asParams } from "./params.js";
import type { SessionCatalogue } from "./session-catalogue.js";

/** What the gateway offers every client in `initialize`. */
const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  logging: {},
  completions: {},
};

/**
 * One client's handshake (MCP "Lifecycle"), with `@patchbay/server`'s `acceptInitialize`: answers
 * `initialize` once, with the instructions of the backends already running, and holds every other
 * request until it came (-32600; `ping` may come first). `notifications/initialized` (or the bare
 * `initialized` of older clients) makes the session initialized.
 */
export class SessionLifecycle {
  /** The revision agreed with the client. */
  protocolVersion: string | undefined;
  /** The capabilities the client declared, once it sent `initialize`. */
  clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** The `clientInfo` the client sent in `initialize`. */
  clientInfo: Implementation | undefined;
  /** True once the client sent `notifications/initialized`. */
  initialized = false;
  readonly #connection: Connection;

  constructor(
    connection: Connection,
    view: SessionCatalogue,
    state: RouterState,
    events: { initializeReceived(info: FrameInfo): void; initialized(): Promise<void> },
  ) {
    this.#connection = connection;
    connection.handle("initialize", (params, context) => {
      if (this.clientCapabilities !== undefined) {
        throw new JSONRPCError(ErrorCode.InvalidRequest, "The session is already initialized");
      }
      const accepted = acceptInitialize(asParams(params), {
        capabilities: GATEWAY_CAPABILITIES,
        serverInfo: state.serverInfo,
        instructions: instructionsOf(view, state.config.namespaceSeparator),
      });
      this.protocolVersion = accepted.protocolVersion;
      this.clientCapabilities = accepted.clientCapabilities;
      this.clientInfo = accepted.clientInfo;
      events.initializeReceived(context.info);
      if (!wantsTasks(accepted.protocolVersion, accepted.clientCapabilities))
        return accepted.result;
      return withTasksOffered(accepted.result, view, state);
    });
    const onInitialized = async () => {
      if (this.clientCapabilities === undefined || this.initialized) return;
      this.initialized = true;
      await events.initialized();
    };
    connection.handleNotification("notifications/initialized", onInitialized);
    // Older clients (and gateways) send the bare `initialized`; it means the same.
    connection.handleNotification(initializedAliasNotification.method, onInitialized);
    connection.handle("ping", () => ({}));
  }

  /** Handles a request method once the client has sent `initialize` (before: -32600). */
  handle(method: string, handler: RequestHandler): void {
    this.#connection.handle(method, (params, context) => {
      // Checked here, thrown there: an initialized session's request calls nothing more.
      if (this.clientCapabilities === undefined) this.requireInitialize(method);
      return handler(params, context);
    });
  }

  /** Answers requests no handler takes, once the client has sent `initialize` (before: -32600). */
  handleUnknown(handler: RequestHandler): void {
    this.#connection.setFallbackRequestHandler((params, context) => {
      this.requireInitialize(context.method);
      return handler(params, context);
    });
  }

  /** Throws -32600 unless the client has sent `initialize`. */
  requireInitialize(method: string): void {
    if (this.clientCapabilities === undefined) {
      throw new JSONRPCError(
        ErrorCode.InvalidRequest,
        `Session not initialized: the client must send initialize before ${method}`,
      );
    }
  }
}

/** A 2025-11-25 client that declared tasks (the revision that has them; 2026-07-28 is modern). */
function wantsTasks(protocolVersion: string, capabilities: Readonly<Record<string, unknown>>) {
  return protocolVersion >= "2025-11-25" && capabilities.tasks !== undefined;
}

/**
 * The initialize result offering tasks when a backend the session sees offers them. Capabilities
 * cannot change after `initialize`, so for a client that declared tasks the answer waits for the
 * backends starting now (at most `listWaitMs`, as a list does); a lazy backend is not started.
 */
async function withTasksOffered(
  result: Record<string, unknown>,
  view: SessionCatalogue,
  state: RouterState,
): Promise<Record<string, unknown>> {
  const underway = view.startsUnderway();
  if (underway !== undefined) {
    await new Promise<void>((resolve) => {
      const timer = state.clock.setTimeout(resolve, state.listWaitMs);
      underway.then(() => {
        state.clock.clearTimeout(timer);
        resolve();
      });
    });
  }
  const offered = view
    .backends()
    .some(
      (backend) =>
        backend.status === "running" &&
        (offersLegacyTasks(backend.initializeResult?.capabilities) ||
          offersTasksExtension(backend.initializeResult?.capabilities)),
    );
  if (!offered) return result;
  const capabilities = result.capabilities as Record<string, unknown>;
  return { ...result, capabilities: { ...capabilities, tasks: LEGACY_TASKS_CAPABILITY } };
}

// Backends already running (eager start, reload) have told theirs; later ones cannot be added.
function instructionsOf(view: SessionCatalogue, separator: string): string | undefined {
  return combineInstructions(
    view.backends().flatMap((backend) => {
      const text = backend.status === "running" ? backend.initializeResult?.instructions : "";
      const namespace = backend.config.namespace;
      return text
        ? [
            {
              name: backend.name,
              prefix: namespace === "" ? "" : `${namespace}${separator}`,
              instructions: text,
            },
          ]
        : [];
    }),
  );
}
