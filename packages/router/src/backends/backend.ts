import {
  type CallOptions,
  type Client,
  type ClientRequestContext,
  createClient,
  type Implementation,
  type InitializeResult,
  type LoggingLevel,
} from "@patchbay/client";
import {
  type Cancellation,
  type Connection,
  JSONRPCError,
  type JSONRPCParams,
  type RequestOptions,
  type Transport,
} from "@patchbay/jsonrpc-core";
import type { EventInput } from "@patchbay/telemetry";
import type { BackendListing } from "../catalogue/build-catalogue.js";
import { createNameFilter, type NameFilter } from "../catalogue/name-filter.js";
import type { BackendConfig } from "../config/gateway-config.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { backendUnavailableError } from "../errors/map-error.js";
import { signInRequiredOf } from "../errors/sign-in-required.js";
import { createRestartPolicy, type RestartPolicy } from "../lifecycle/restart-policy.js";
import type { BackendListener, ServerToClientMethod } from "./backend-events.js";
import {
  type BackendExit,
  crashOf,
  describeTransportEnd,
  type TransportEnd,
} from "./backend-exit.js";
import { type CallCause, CallCauses } from "./call-causes.js";
import { capabilitiesForCaller } from "./caller-capabilities.js";
import { discoverListing, LIST_KINDS, type ListKind } from "./discover-listing.js";
import {
  eraOf,
  listenForListChanges,
  refusesLegacy,
  sendToModernBackend,
  withInputKey,
} from "./modern-backend.js";
import { relayedExtensions } from "./relayed-extensions.js";
import type { RouterClock } from "./router-clock.js";
import { serverRequestHandlers } from "./server-request-handlers.js";
import { describeError, withinTimeout } from "./within-timeout.js";

/** Where a backend is in its life. */
export type BackendStatus =
  | "idle"
  | "starting"
  | "running"
  | "restarting"
  | "failed"
  | "stopped"
  | "disabled"
  /** It needs a person to sign in (OAuth): not restarted; a call tries it once more. */
  | "needs_sign_in";

/** Who a backend is opened for: set for a per-principal instance (its principal). */
export interface BackendConnectContext {
  readonly principal?: string;
}

/** Opens a transport to a backend: the router takes one per transport kind as a parameter. */
export type BackendTransportFactory = (
  config: BackendConfig,
  context?: BackendConnectContext,
) => Transport | Promise<Transport>;

/** What the clients behind a backend declared, read each time it starts. */
export interface BackendAudience {
  /** The revision to ask for in `initialize` (a per-session backend uses its client's). */
  readonly protocolVersion: string | undefined;
  /**
   * The clients' capabilities, declared to the backend as the gateway's own; `undefined` when no
   * client is known yet (the gateway then declares sampling, elicitation and roots).
   */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;
  /** The logging level to set once it runs. */
  readonly logLevel: LoggingLevel | undefined;
}

/** What a backend is made with. */
export interface BackendDependencies {
  readonly clientInfo: Implementation;
  readonly clock: RouterClock;
  readonly connect: BackendTransportFactory;
  /** Reads what the clients behind it declared (called as it starts). */
  readonly audience: () => BackendAudience;
  /** Receives its events. */
  readonly listener: BackendListener;
  /** What clients may see of a listing (pins withhold changed definitions); all of it when absent. */
  readonly vet?: (listing: BackendListing) => BackendListing;
}

/** Options of one forwarded request. */
export interface BackendRequestOptions {
  readonly signal?: AbortSignal;
  /** Like `signal`, without an AbortSignal (the client request's `context.cancellation`). */
  readonly cancellation?: Cancellation;
  readonly onProgress?: (params: unknown) => void;
  /** Who made the call, so that the backend's requests during it reach that caller. */
  readonly cause?: CallCause;
  /** Extensions declared for this request only (a modern backend: its calling client's). */
  readonly extensions?: CallOptions["extensions"];
  /**
   * The relayed capabilities (sampling, elicitation, roots) of the modern client making the call:
   * a modern backend is told these in this request instead of the gateway's.
   */
  readonly callerCapabilities?: Readonly<Record<string, unknown>>;
}

/** One backend server, kept running (or not) by the router; tells what happens as events. */
export class Backend {
  readonly name: string;
  readonly config: BackendConfig;
  /** The calls in flight and their callers. */
  readonly causes = new CallCauses();
  #status: BackendStatus;
  #client: Client | undefined;
  /**
   * The running client's connection while it speaks a legacy revision, undefined for a modern one:
   * read once as it starts, so a forwarded call asks the client nothing.
   */
  #legacyConnection: Connection | undefined;
  #initializeResult: InitializeResult | undefined;
  #listing: BackendListing | undefined;
  #starting: Promise<void> | undefined;
  #restartTimer: unknown;
  #startedAt: number | undefined;
  #lastError: string | undefined;
  #stopping = false;
  /** It refused `initialize` naming only modern revisions: it is spoken to in 2026-07-28. */
  #modernOnly = false;
  #generation = 0;
  /** Its wait for a sign-in was recorded (and logged) once; cleared when it runs again. */
  #signInRecorded = false;
  readonly #policy: RestartPolicy;
  readonly #toolFilter: NameFilter;
  readonly #deps: BackendDependencies;

  constructor(config: BackendConfig, deps: BackendDependencies) {
    this.name = config.name;
    this.config = config;
    this.#deps = deps;
    this.#policy = createRestartPolicy(config.restart, deps.clock);
    this.#toolFilter = createNameFilter(config.tools);
    this.#status = config.disabled ? "disabled" : "idle";
  }

  get status(): BackendStatus {
    return this.#status;
  }

  /** Its tools, prompts and resources while it runs. */
  get listing(): BackendListing | undefined {
    if (this.#status !== "running" || this.#listing === undefined) return undefined;
    return this.#deps.vet ? this.#deps.vet(this.#listing) : this.#listing;
  }

  /** Tells its sessions to read every list again (what pins let through changed). */
  announceListing(): void {
    if (this.listing === undefined) return;
    for (const list of ["tools", "prompts", "resources"] as const) {
      this.#deps.listener({ type: "changed", backend: this.name, list });
    }
  }

  /** The `initialize` result while it runs. */
  get initializeResult(): InitializeResult | undefined {
    return this.#initializeResult;
  }

  /** The client capabilities the gateway declared to it (what it may ask the client for). */
  get declaredCapabilities(): Readonly<Record<string, unknown>> | undefined {
    return this.#status === "running"
      ? (this.#client?.capabilities as Record<string, unknown>)
      : undefined;
  }

  get restarts(): number {
    return this.#policy.restarts;
  }

  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Milliseconds since it last started, while it runs. */
  uptimeMs(): number | undefined {
    return this.#startedAt === undefined ? undefined : this.#deps.clock.now() - this.#startedAt;
  }

  /**
   * The start underway, a first one or a restart's run (its status is then "starting" or
   * "restarting"), until it runs or has failed; `undefined` when none is. Its connect, `initialize`
   * and lists are each bounded by the backend's timeouts, so waiting for it is bounded too.
   */
  get startUnderway(): Promise<void> | undefined {
    return this.#starting;
  }

  /** Starts it (idempotent); resolves once it runs or has failed. */
  start(): Promise<void> {
    const status = this.#status;
    if (status === "disabled" || this.#stopping || status === "running") return Promise.resolve();
    if (this.#starting) return this.#starting;
    if (status === "restarting" || status === "failed" || status === "needs_sign_in") {
      if (status === "failed") this.#policy.reset();
      if (this.#restartTimer !== undefined) this.#deps.clock.clearTimeout(this.#restartTimer);
      this.#restartTimer = undefined;
    }
    return this.#beginRun();
  }

  /** Sends a request, starting a lazy backend first. Failures reject as the client raised them. */
  request(
    method: string,
    params: JSONRPCParams | undefined,
    options: BackendRequestOptions = {},
  ): Promise<unknown> {
    // The forwarding hot path: a running backend takes the request at once, with no extra await.
    const client = this.#client;
    if (this.#status === "running" && this.#starting === undefined && client !== undefined) {
      return this.#send(client, method, params, options);
    }
    return this.#startThenSend(method, params, options);
  }

  /** Sends a notification if it runs. */
  async notify(method: string, params?: JSONRPCParams): Promise<void> {
    const connection = this.#client?.connection;
    // 2026-07-28 has no client notifications but cancellation (roots are asked for per request).
    if (this.#client?.protocolEra === "modern") return;
    if (this.#status === "running" && connection && !connection.closed)
      await connection.notify(method, params);
  }

  /** Stops it for good (no restart). */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#generation++;
    if (this.#restartTimer !== undefined) this.#deps.clock.clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    const target = this.#client;
    this.#client = undefined;
    this.#legacyConnection = undefined;
    this.#listing = undefined;
    this.#startedAt = undefined;
    await target?.close().catch(() => {});
    if (this.#status !== "disabled") {
      this.#record({ event_type: "backend.stopped", backend: this.name });
      this.#setStatus("stopped");
    }
  }

  #setStatus(next: BackendStatus): void {
    this.#status = next;
    this.#deps.listener({ type: "changed", backend: this.name });
  }

  #record(event: EventInput): void {
    this.#deps.listener({ type: "recorded", event });
  }

  #beginRun(): Promise<void> {
    const running = this.#run().finally(() => {
      if (this.#starting === running) this.#starting = undefined;
    });
    this.#starting = running;
    return running;
  }

  async #run(): Promise<void> {
    const runGeneration = ++this.#generation;
    const config = this.config;
    const clock = this.#deps.clock;
    this.#setStatus(this.#status === "restarting" ? "restarting" : "starting");
    let target: Client | undefined;
    // Set by the transport's close listener (a holder: control flow does not see that assignment).
    const ended: { transport: TransportEnd | undefined } = { transport: undefined };
    try {
      const transport = await withinTimeout(
        Promise.resolve(this.#deps.connect(config)),
        config.maxTimeoutMs,
        clock,
        `could not open a transport within ${config.maxTimeoutMs} ms`,
      );
      // Before the client's own listener: why it ended is known when the client sees it close.
      transport.onClose((event) => {
        ended.transport = describeTransportEnd(event) ?? ended.transport;
      });
      const audience = this.#deps.audience();
      target = this.#createClient(audience);
      const current = target;
      this.#listen(current, runGeneration, () => ended.transport);
      // A transport whose start never settles (an SSE stream that never names its endpoint, say)
      // must not keep the backend "starting" forever.
      const initializeResult = await withinTimeout(
        current.connect(transport),
        config.maxTimeoutMs,
        clock,
        `did not complete initialize within ${config.maxTimeoutMs} ms`,
      );
      this.#initializeResult = initializeResult;
      this.#forwardNotifications(current);
      if (current.protocolEra === "modern") listenForListChanges(current);
      let listing: BackendListing = {
        backend: config.name,
        namespace: config.namespace,
        toolFilter: this.#toolFilter,
      };
      for (const [kind] of LIST_KINDS) {
        listing = await discoverListing(current, kind, listing, config.timeoutMs);
      }
      if (this.#stopping || runGeneration !== this.#generation) {
        await current.close();
        return;
      }
      this.#listing = listing;
      this.#deps.vet?.(listing);
      this.#client = current;
      this.#legacyConnection = current.protocolEra === "modern" ? undefined : current.connection;
      this.#startedAt = clock.now();
      this.#policy.recordStart();
      const level = this.#deps.audience().logLevel;
      if (level !== undefined && initializeResult.capabilities.logging) {
        await current.setLoggingLevel(level, { timeoutMs: config.timeoutMs }).catch(() => {});
      }
      this.#record({
        event_type: this.#policy.restarts > 0 ? "backend.restarted" : "backend.started",
        backend: config.name,
        data: {
          transport: config.transport,
          protocol_version: initializeResult.protocolVersion,
          tool_count: listing.tools?.length ?? 0,
        },
      });
      this.#signInRecorded = false;
      this.#setStatus("running");
    } catch (error) {
      // How its process ended says more than the failed request's "connection closed".
      this.#lastError = ended.transport?.processEnd ?? describeError(error);
      if (target) {
        await withinTimeout(target.close(), config.timeoutMs, clock, "close timed out").catch(
          () => {},
        );
      }
      if (runGeneration !== this.#generation) return;
      const signIn = signInRequiredOf(error);
      if (signIn !== undefined) {
        this.#awaitSignIn(signIn.message);
        return;
      }
      if (config.protocolEra === undefined && !this.#modernOnly && refusesLegacy(error)) {
        this.#modernOnly = true;
        await this.#run();
        return;
      }
      this.#onExit({
        reason: `start failed: ${this.#lastError}`,
        stderr: ended.transport?.stderr ?? [],
      });
    }
  }

  #createClient(audience: BackendAudience): Client {
    const config = this.config;
    const extensions = relayedExtensions(audience.capabilities);
    return createClient(this.#deps.clientInfo, {
      ...(Object.keys(extensions).length === 0 ? {} : { capabilities: { extensions } }),
      ...(audience.protocolVersion === undefined
        ? {}
        : { protocolVersion: audience.protocolVersion }),
      // Starting may take long (npx downloading a server): initialize gets the hard maximum;
      // every other request passes its own timeoutMs.
      requestTimeoutMs: config.maxTimeoutMs,
      // Each backend is spoken to in its own era: see `eraOf`.
      protocolEra: eraOf(config, this.#modernOnly),
      // Request timeouts run on the router's clock, so tests can drive them.
      connection: { clock: this.#deps.clock },
      ...serverRequestHandlers(audience.capabilities, (method, params, context) =>
        this.#askClient(method, params, context),
      ),
    });
  }

  /** Wires a new client's close (and why its transport ended) and list_changed notifications. */
  #listen(current: Client, runGeneration: number, endOf: () => TransportEnd | undefined): void {
    current.onClose(() => {
      if (runGeneration === this.#generation && this.#client === current)
        this.#onExit(crashOf(endOf()));
    });
    for (const [kind, method] of LIST_KINDS) {
      current.on(method, () => {
        if (this.#client === current) this.#refresh(current, kind);
      });
    }
  }

  /** Passes a connected client's notifications on, with the call each belongs to when known. */
  #forwardNotifications(current: Client): void {
    current.connection?.onNotification((notification, info) => {
      if (this.#client !== current) return;
      const method = notification.method;
      if (method.endsWith("/list_changed") || method === "notifications/progress") return;
      // A modern backend's listen stream is the router's own business.
      if (method === "notifications/subscriptions/acknowledged") return;
      if (method === "notifications/cancelled") return;
      const related = info.relatedRequestId;
      const cause = related === undefined ? undefined : this.causes.of(related);
      this.#deps.listener({ type: "notification", backend: this.name, notification, cause });
    });
  }

  #refresh(current: Client, kind: ListKind): void {
    const base = this.#listing;
    if (base === undefined) return;
    discoverListing(current, kind, base, this.config.timeoutMs)
      .then((listing) => {
        if (this.#client !== current) return;
        this.#listing = listing;
        this.#deps.vet?.(listing);
        this.#deps.listener({ type: "changed", backend: this.name, list: kind });
      })
      .catch((error: unknown) => {
        this.#lastError = `refreshing ${kind} failed: ${describeError(error)}`;
      });
  }

  /** Emits a server-to-client request with what is known of its cause; someone must respond. */
  #askClient(
    method: ServerToClientMethod,
    params: unknown,
    context: ClientRequestContext,
  ): Promise<unknown> {
    const related = context.relatedRequestId;
    const asked = withInputKey(params, context.inputKey);
    return new Promise((resolve, reject) => {
      let responded = false;
      this.#deps.listener({
        type: "server-request",
        backend: this.name,
        method,
        params: asked,
        signal: context.signal,
        relatedRequestId: related,
        cause: related === undefined ? undefined : this.causes.of(related),
        busyCallers: this.causes.callers(),
        respond(answer) {
          if (responded) return;
          responded = true;
          answer.then(resolve, reject);
        },
      });
      if (!responded) {
        reject(
          new JSONRPCError(GatewayErrorCode.CapabilityNotSupported, `Nobody can answer ${method}`, {
            backend: this.name,
            method,
          }),
        );
      }
    });
  }

  /** It cannot start until a person signs in: said once, and not restarted. */
  #awaitSignIn(message: string): void {
    this.#lastError = message;
    // A call tries it again each time: the first failure is recorded, not every retry.
    if (!this.#signInRecorded) this.#recordSignInWait(message);
    this.#setStatus("needs_sign_in");
  }

  #recordSignInWait(message: string): void {
    this.#signInRecorded = true;
    this.#record({
      event_type: "backend.crashed",
      status: "failure",
      backend: this.name,
      data: { reason: message, gave_up: "not restarted until signed in" },
    });
  }

  #onExit(exit: BackendExit): void {
    const { reason, stderr } = exit;
    const wasRunning = this.#status === "running";
    this.#client = undefined;
    this.#listing = undefined;
    this.#initializeResult = undefined;
    this.#startedAt = undefined;
    if (this.#stopping) {
      this.#setStatus("stopped");
      return;
    }
    if (wasRunning) this.#lastError = reason;
    const decision = this.#policy.recordExit();
    this.#record({
      event_type: "backend.crashed",
      status: "failure",
      backend: this.name,
      data: {
        reason,
        ...(stderr.length === 0 ? {} : { stderr }),
        ...(decision.restart ? { restart_in_ms: decision.delayMs } : { gave_up: decision.reason }),
      },
    });
    if (!decision.restart) {
      this.#lastError = `${reason}; ${decision.reason}`;
      this.#setStatus("failed");
      return;
    }
    this.#setStatus("restarting");
    this.#restartTimer = this.#deps.clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (!this.#stopping) void this.#beginRun();
    }, decision.delayMs);
  }

  #send(
    target: Client,
    method: string,
    params: JSONRPCParams | undefined,
    options: BackendRequestOptions,
  ): Promise<unknown> {
    const cause = options.cause;
    const tracked = cause === undefined ? undefined : this.causes.track(cause);
    // Built by assignment, not spreads: this runs for every forwarded call.
    const requestOptions: { -readonly [K in keyof RequestOptions]: RequestOptions[K] } = {
      timeoutMs: this.config.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeoutMs: this.config.maxTimeoutMs,
    };
    if (options.signal !== undefined) requestOptions.signal = options.signal;
    if (options.cancellation !== undefined) requestOptions.cancellation = options.cancellation;
    if (options.onProgress !== undefined) requestOptions.onProgress = options.onProgress;
    if (tracked !== undefined) requestOptions.onRequestId = tracked.onRequestId;
    const legacy =
      target === this.#client
        ? this.#legacyConnection
        : target.protocolEra === "modern"
          ? undefined
          : (target.connection as Connection);
    if (legacy === undefined) {
      const sent = sendToModernBackend(
        target,
        method,
        params,
        modernOptionsOf(target, options, requestOptions),
      );
      // Ended beside the caller's await, not in its chain: the answer costs no extra tick.
      if (tracked !== undefined) sent.then(tracked.end, tracked.end);
      return sent;
    }
    // The connection ends it as the request settles: no promise handler per call.
    if (tracked !== undefined) requestOptions.onSettled = tracked.end;
    return legacy.request(method, params, requestOptions);
  }

  /** What to do about it, while it waits for a sign-in (its last error says what to run). */
  #signInHint(): string | undefined {
    return this.#status === "needs_sign_in" ? this.#lastError : undefined;
  }

  // A lazy backend starts on its first request; one (re)starting is waited for.
  async #startThenSend(
    method: string,
    params: JSONRPCParams | undefined,
    options: BackendRequestOptions,
  ): Promise<unknown> {
    // A backend waiting for a sign-in is tried again: the person may have signed in since.
    if (this.#status === "idle" || this.#status === "needs_sign_in") await this.start();
    else if (this.#starting) await this.#starting;
    const target = this.#client;
    if (this.#status !== "running" || target === undefined) {
      const error = backendUnavailableError(this.name, this.#status, this.#signInHint());
      throw new JSONRPCError(error.code, error.message, error.data);
    }
    return await this.#send(target, method, params, options);
  }
}

/** The options of a request to a modern backend: the caller's extensions and capabilities. */
function modernOptionsOf(
  target: Client,
  options: BackendRequestOptions,
  requestOptions: RequestOptions,
): CallOptions {
  if (options.extensions === undefined && options.callerCapabilities === undefined) {
    return requestOptions;
  }
  const modernOptions: CallOptions = { ...requestOptions };
  if (options.extensions !== undefined) modernOptions.extensions = options.extensions;
  if (options.callerCapabilities !== undefined) {
    modernOptions.capabilities = capabilitiesForCaller(
      target.capabilities as Record<string, unknown>,
      options.callerCapabilities,
    );
  }
  return modernOptions;
}
