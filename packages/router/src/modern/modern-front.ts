import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
  type FrameInfo,
  JSONRPCError,
  type JSONRPCNotification,
  type JSONRPCParams,
  MethodNotFoundError,
  type Transport,
} from "@patchbay/jsonrpc-core";
import {
  checkModernProtocolVersion,
  createMcpConnectionHooks,
  getModernRequestMeta,
  isLoggingLevel,
  isLoggingLevelEnabled,
  LATEST_LEGACY_PROTOCOL_VERSION,
  type ModernRequestMeta,
  RELATED_TASK_META_KEY,
} from "@patchbay/mcp-types";
import { declaresTasks, tasksExtensionRequired } from "@patchbay/server";
import { CLIENT_CAPABILITY_OF, type ServerToClientMethod } from "../backends/backend-events.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { INVALID_PARAMS } from "../errors/map-error.js";
import type { RouterSession } from "../sessions/router-session.js";
import { forwardTaskMethod, routeCreatedTask, TASK_METHODS } from "../tasks/front-tasks.js";
import { isLegacyBackendRoute, legacyBackendTaskMethod } from "../tasks/modern-legacy-bridge.js";
import type { TaskRoute, TaskRoutes } from "../tasks/task-routes.js";
import { discoverResult } from "./discover-result.js";
import type { ActiveRound } from "./held-call.js";
import { HeldCalls } from "./held-calls.js";
import { ModernListeners } from "./modern-listen.js";
import type { ModernSettings } from "./modern-settings.js";
import { checkParamHeaders } from "./param-header-check.js";
import { modernUrlElicitation } from "./url-elicitation.js";

/** What the transport gives the modern front with each request. */
export interface ModernRequestContext {
  /** Aborted when the client goes away or cancels (HTTP: the response stream closed). */
  readonly signal: AbortSignal;
  /** How the request arrived (HTTP headers, authentication). */
  readonly info?: FrameInfo;
  /** Sends a notification related to this request (progress, log, listen) before its response. */
  notify(method: string, params: Record<string, unknown>): void;
}

/** Methods whose calls may be answered `input_required` (MCP 2026-07-28 MRTR), and their target. */
export const MRTR_TARGETS: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** Methods the front forwards to the legacy session behind it as they are. */
const FORWARDED_METHODS = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "completion/complete",
]);

const SERVER_REQUESTS: readonly ServerToClientMethod[] = [
  "sampling/createMessage",
  "elicitation/create",
  "roots/list",
];

/** What a front is made with. */
export interface ModernFrontDependencies {
  /** Serves the legacy session behind the front (the router's own `serve`). */
  serve(transport: Transport): Promise<RouterSession>;
  readonly settings: ModernSettings;
  readonly serverInfo: Readonly<Record<string, unknown>>;
  /** The caller and profile, as the cluster's held-call ledger counts them. Default: the caller. */
  readonly scope?: string;
  /** The router's tasks (extension `io.modelcontextprotocol/tasks`), shared by its fronts. */
  readonly tasks: TaskRoutes;
}

/**
 * The modern (2026-07-28) front of one caller (a token on HTTP, a stdio client) on one profile. It
 * owns a legacy session of the router, reached over an in-memory transport and initialized once
 * with sampling, elicitation and roots, so that everything the legacy path does (catalogue,
 * namespacing, forwarding, route by cause, isolation) serves modern requests too: each modern
 * request is validated (`_meta`), sent on as a legacy request, and its answer made modern. A
 * backend's question during a call becomes an `input_required` result (see `HeldCalls`).
 */
export class ModernFront {
  readonly caller: string;
  readonly #deps: ModernFrontDependencies;
  readonly #listeners: ModernListeners;
  readonly #held: HeldCalls;
  /** Each list as its listeners were last told of it (a fingerprint of the session's catalogue). */
  readonly #told = new Map<ListKind, string>();
  #opened: Promise<{ connection: Connection; session: RouterSession; instructions?: string }>;
  #session: RouterSession | undefined;

  constructor(caller: string, deps: ModernFrontDependencies) {
    this.caller = caller;
    this.#deps = deps;
    this.#opened = this.#open();
    // Unhandled until a request awaits it; a failed open is reported to that request.
    this.#opened.catch(() => {});
    const updates = deps.settings.cluster?.resourceUpdates;
    const scope = deps.scope ?? caller;
    this.#listeners = new ModernListeners(
      async (method, params) =>
        (await this.#opened).connection.request(method, params as JSONRPCParams),
      updates === undefined ? undefined : (uri, wanted) => updates.want(scope, uri, wanted),
    );
    this.#held = new HeldCalls(
      caller,
      deps.settings,
      async (method, params, options) =>
        (await this.#opened).connection.request(method, params as JSONRPCParams, options),
      deps.scope,
    );
  }

  /** The legacy session behind the front, once open. */
  get session(): RouterSession | undefined {
    return this.#session;
  }

  /** Calls held for this caller, waiting for its retry. */
  get waitingCalls(): number {
    return this.#held.waiting;
  }

  /** Answers one modern request (undefined for a notification). */
  async handle(
    method: string,
    id: string | number,
    rawParams: unknown,
    context: ModernRequestContext,
  ): Promise<unknown> {
    const params =
      typeof rawParams === "object" && rawParams !== null && !Array.isArray(rawParams)
        ? (rawParams as Record<string, unknown>)
        : undefined;
    if (params === undefined) throw new JSONRPCError(INVALID_PARAMS, "params must be an object");
    const check = checkModernProtocolVersion(params, this.#deps.settings.protocolVersions);
    if (!check.ok) throw new JSONRPCError(check.error.code, check.error.message, check.error.data);
    const meta = getModernRequestMeta(params);
    if (meta === undefined) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        'Missing required _meta field "io.modelcontextprotocol/clientCapabilities"',
      );
    }
    const opened = await this.#opened;
    if (method === "server/discover" || method === "subscriptions/listen") {
      // The legacy session's lists wait for backends in their first start (listWaitMs), so the
      // capabilities below come from every backend that can come up.
      await opened.connection.request("tools/list", {}, { signal: context.signal });
    }
    if (method === "server/discover") {
      return discoverResult(opened.session, this.#deps.settings, opened.instructions);
    }
    if (method === "subscriptions/listen") {
      const capabilities = discoverResult(opened.session, this.#deps.settings).capabilities;
      return await this.#listeners.listen(id, params, capabilities, context);
    }
    if (FORWARDED_METHODS.has(method)) {
      return await opened.connection.request(method, params as JSONRPCParams, {
        signal: context.signal,
      });
    }
    if (TASK_METHODS.has(method)) {
      // The extension's methods need the client to declare it in this request (-32021).
      if (!declaresTasks(meta)) throw tasksExtensionRequired(method);
      const backends = opened.session.backends();
      const route = this.#deps.tasks.get(this.caller, params.taskId);
      if (isLegacyBackendRoute(route, backends)) {
        return await legacyBackendTaskMethod(this.#deps.tasks, backends, {
          method,
          params,
          route,
          signal: context.signal,
        });
      }
      return await forwardTaskMethod(this.#deps.tasks, backends, {
        method,
        params,
        caller: this.caller,
        signal: context.signal,
      });
    }
    const targetKey = MRTR_TARGETS[method];
    if (targetKey === undefined) throw new MethodNotFoundError(`Method not found: ${method}`);
    if (method === "tools/call") {
      // Checked against the tool as listed: a call that reaches a backend still starting waits
      // for its listing first, or it would pass unchecked.
      const catalogue = await opened.session.catalogueListingTool(String(params.name ?? ""));
      checkParamHeaders(catalogue.tools, params, context.info);
    }
    const answer = await this.#held
      .call(method, String(params[targetKey] ?? ""), params, {
        signal: context.signal,
        round: roundOf(meta, params, context),
      })
      .catch((error: unknown) => modernUrlElicitation(error, method, meta.clientCapabilities));
    if (method !== "tools/call" || isInputRequired(answer)) return answer;
    const owner = opened.session.catalogue().findTool(String(params.name ?? ""))?.backend;
    const backend = opened.session.backends().find((candidate) => candidate.name === owner);
    return routeCreatedTask(this.#deps.tasks, answer, this.caller, backend, {
      session: opened.session.id,
      capabilities: meta.clientCapabilities,
    });
  }

  /**
   * A backend announced that a list changed. Listeners hear it even when the aggregated list ends
   * up as it was (a backend that added and removed an entry), which the legacy session, comparing
   * catalogues, would not announce. That session's own announcements (a backend came up or went
   * away, a reload) reach them too, but not its echo of an announcement (see `expectEcho`).
   */
  listChanged(backend: string, list: ListKind, owner?: string): void {
    this.#opened.then(
      ({ session }) => {
        if (seesBackend(session, backend, owner))
          this.#listeners.dispatch({
            jsonrpc: "2.0",
            method: `notifications/${list}/list_changed`,
          });
      },
      () => {},
    );
  }

  /**
   * A backend of this replica announced a change of `list`, which listeners are told of (here, or
   * through the cluster's relay). Called at once, while the legacy session's own announcement of
   * the same change is still on its way, so that it is not told a second time.
   */
  expectEcho(backend: string, list: ListKind, owner?: string): void {
    const session = this.#session;
    if (session !== undefined && seesBackend(session, backend, owner)) {
      this.#told.set(list, fingerprintOf(session, list));
    }
  }

  /** Another replica's listen streams of this caller want updates of `uri` (or no longer). */
  remoteWant(replica: string, uri: string, wanted: boolean): Promise<void> {
    return this.#listeners.wantedBy(replica, uri, wanted);
  }

  /** A backend on another replica announced an update of `uri` that this front's streams want. */
  remoteUpdated(uri: string): void {
    this.#listeners.dispatch({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri },
    });
  }

  /** Ends the legacy session behind the front (held calls are released with it). */
  async close(): Promise<void> {
    this.#held.releaseAll();
    const opened = await this.#opened.catch(() => undefined);
    await opened?.connection.close();
  }

  async #open() {
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    const connection = createConnection(clientSide, {
      ...createMcpConnectionHooks(),
      defaultTimeoutMs: 0,
    });
    for (const method of SERVER_REQUESTS) {
      connection.handle(method, (params, context) => {
        const route = this.#taskRouteOf(params);
        if (route !== undefined) {
          refuseUndeclared(route, method);
          return this.#deps.tasks.inputs.ask(route, method, params, context.signal);
        }
        return this.#held.onBackendRequest(method, params, context.info.relatedRequestId);
      });
    }
    connection.onNotification((notification, info) => this.#onNotification(notification, info));
    const session = await this.#deps.serve(gatewaySide);
    this.#session = session;
    await connection.start();
    const result = (await connection.request("initialize", {
      protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION,
      // URL-mode elicitation too: what the session answers -32042 reaches a caller whose request
      // declared it as an input_required question (see `modernUrlElicitation`), any other as text.
      capabilities: {
        sampling: {},
        elicitation: { form: {}, url: {} },
        roots: { listChanged: true },
      },
      clientInfo: { name: "patchbay-modern-front", version: "1.0.0" },
    })) as { instructions?: unknown };
    await connection.notify("notifications/initialized");
    const instructions =
      typeof result.instructions === "string" ? { instructions: result.instructions } : {};
    return { connection, session, ...instructions };
  }

  /**
   * The caller's task a backend's request names (the switchboard put the router's id in its
   * `_meta`): the question waits as the task's input, for `tasks/get` and `tasks/update`.
   */
  #taskRouteOf(params: unknown) {
    const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const taskId = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
    if (typeof taskId !== "string") return undefined;
    try {
      return this.#deps.tasks.get(this.caller, taskId);
    } catch {
      return undefined;
    }
  }

  #onNotification(notification: JSONRPCNotification, info: FrameInfo): void {
    if (notification.method === "notifications/progress") return;
    if (notification.method === "notifications/message") {
      const round = this.#held.liveRound(info.relatedRequestId);
      const params = (notification.params ?? {}) as Record<string, unknown>;
      const threshold = round?.logLevel;
      // 2026-07-28: no notifications/message for a request that did not ask with _meta logLevel.
      if (round === undefined || threshold === undefined || !isLoggingLevel(threshold)) return;
      if (isLoggingLevel(params.level) && !isLoggingLevelEnabled(params.level, threshold)) return;
      round.notify(notification.method, params);
      return;
    }
    const kind = LIST_OF_METHOD[notification.method];
    if (kind !== undefined && this.#session !== undefined) {
      // The legacy session compares catalogues: told only when listeners have not heard of this one.
      const fingerprint = fingerprintOf(this.#session, kind);
      if (this.#told.get(kind) === fingerprint) return;
      this.#told.set(kind, fingerprint);
    }
    this.#listeners.dispatch(notification);
    if (notification.method === "notifications/resources/updated") this.#relayUpdate(notification);
  }

  /** Sends a resource update to the other replicas whose streams want it (see `remoteWant`). */
  #relayUpdate(notification: JSONRPCNotification): void {
    const updates = this.#deps.settings.cluster?.resourceUpdates;
    const uri = (notification.params as { uri?: unknown } | undefined)?.uri;
    if (updates === undefined || typeof uri !== "string") return;
    for (const replica of this.#listeners.wantersOf(uri)) {
      updates.deliver(replica, this.#deps.scope ?? this.caller, uri).then(
        // A replica that is gone wants nothing any more.
        (delivered) => (delivered ? undefined : this.#listeners.wantedBy(replica, uri, false)),
        () => {},
      );
    }
  }
}

type ListKind = "tools" | "prompts" | "resources";

const LIST_OF_METHOD: Readonly<Record<string, ListKind>> = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};

function seesBackend(session: RouterSession, backend: string, owner: string | undefined): boolean {
  return owner === undefined ? session.sees(backend) : owner === session.id;
}

/** A list of the session's catalogue as the legacy session compares it. */
function fingerprintOf(session: RouterSession, list: ListKind): string {
  const catalogue = session.catalogue();
  return JSON.stringify(
    list === "resources" ? [catalogue.resources, catalogue.resourceTemplates] : catalogue[list],
  );
}

function isInputRequired(answer: unknown): boolean {
  return (answer as { resultType?: unknown } | undefined)?.resultType === "input_required";
}

function roundOf(
  meta: ModernRequestMeta,
  params: Record<string, unknown>,
  context: ModernRequestContext,
): ActiveRound {
  const raw = (params._meta ?? {}) as Record<string, unknown>;
  const token = raw.progressToken;
  return {
    notify: (method, body) => context.notify(method, body),
    progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
    logLevel: meta.logLevel,
    clientCapabilities: meta.clientCapabilities,
  };
}

/**
 * Refuses a backend's question about a modern caller's task when the call that created the task
 * did not declare the client capability it needs: the caller could not answer it.
 */
function refuseUndeclared(route: TaskRoute, method: ServerToClientMethod): void {
  const capability = CLIENT_CAPABILITY_OF[method];
  if (route.capabilities === undefined || route.capabilities[capability] !== undefined) return;
  throw new JSONRPCError(
    GatewayErrorCode.CapabilityNotSupported,
    `The client does not support ${method} (its call that created task ${route.taskId} declared no ${capability} capability)`,
  );
}
