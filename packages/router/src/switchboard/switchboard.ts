import type { LoggingLevel } from "@patchbay/client";
import type { JSONRPCId, JSONRPCNotification } from "@patchbay/jsonrpc-core";
import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { type LoggingLevel as Level, RELATED_TASK_META_KEY } from "@patchbay/mcp-types";
import type { Telemetry } from "@patchbay/telemetry";
import type { BackendAudience } from "../backends/backend.js";
import type { BackendEvent, ServerRequestEvent } from "../backends/backend-events.js";
import type { BackendWiring, PrincipalWiring } from "../backends/backend-pool.js";
import { mergeClientCapabilities } from "../backends/relayed-extensions.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import {
  routeTaskStatus,
  sessionOfRoute,
  sessionOfTaskCaller,
  TASK_STATUS_NOTIFICATION,
} from "../tasks/legacy-tasks.js";
import type { TaskRoute, TaskRoutes } from "../tasks/task-routes.js";
import { describeLifecycleEvent } from "./lifecycle-log.js";
import { chooseRelayTarget } from "./relay-target.js";
import { sharedLogLevel } from "./shared-log-level.js";

/** How long a backend's request about a task waits for the router to route that task. */
const ROUTE_WAIT_MS = 5_000;

/** The task a backend's request names in `_meta["io.modelcontextprotocol/related-task"]`. */
function relatedTaskOf(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const taskId = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
  return typeof taskId === "string" ? taskId : undefined;
}

/** What the switchboard needs of a client session (`sessions/` implements it). */
export interface SwitchboardSession {
  readonly id: string;
  /** True once the client sent `notifications/initialized`. */
  readonly initialized: boolean;
  readonly protocolVersion: string | undefined;
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  readonly logLevel: Level | undefined;
  /** Who the session serves (a token's name, an OAuth principal); `undefined` for anonymous. */
  readonly principal?: string | undefined;
  /** True when the session's profile includes backend `backend`. */
  sees(backend: string): boolean;
  /** True when the client subscribed to `uri` of backend `backend` (the backend's own URI). */
  subscribesTo(backend: string, uri: string): boolean;
  /** Re-reads the catalogue and tells the client which lists changed. */
  refresh(): void;
  /** Delivers a backend notification as the forwarding rules say, related to a call of the client's when known. */
  deliver(backend: string, notification: JSONRPCNotification, relatedRequestId?: JSONRPCId): void;
  /** Sends the client a log line of the gateway's own. */
  log(level: Level, text: string): void;
  /** Relays a backend's request to this client, related to the client's request when known. */
  relay(request: ServerRequestEvent, relatedRequestId: JSONRPCId | undefined): Promise<unknown>;
}

/**
 * Joins the two sides: the live client sessions, and the events of the backends they see. It holds
 * the routing rules: which sessions a backend's event reaches, which session answers a backend's
 * request (by cause, see `chooseRelayTarget`), and what a shared backend is told of its clients
 * (merged capabilities, the most verbose log level). A task's status notification reaches only the
 * session whose task it is, under the router's id (`tasks`, the router's task table).
 */
export class Switchboard<Session extends SwitchboardSession = SwitchboardSession>
  implements BackendWiring, PrincipalWiring
{
  /** The live sessions by id. */
  readonly sessions = new Map<string, Session>();
  readonly #telemetry: Telemetry;
  readonly #tasks: TaskRoutes | undefined;

  constructor(telemetry: Telemetry, tasks?: TaskRoutes) {
    this.#telemetry = telemetry;
    this.#tasks = tasks;
  }

  wire(backend: string, owner: string | undefined) {
    return {
      audience: (): BackendAudience => this.audienceOf(backend, owner),
      listener: (event: BackendEvent) => this.route(event, owner),
    };
  }

  wirePrincipal(backend: string, principal: string) {
    return {
      audience: (): BackendAudience => this.audienceOf(backend, undefined, principal),
      listener: (event: BackendEvent) => this.route(event, undefined, principal),
    };
  }

  /**
   * The sessions that see `backend`: its owner for a per-session backend, else every one whose
   * profile has it (of `principal` alone for a per-principal backend's instance).
   */
  sessionsSeeing(backend: string, owner?: string, principal?: string): Session[] {
    if (owner !== undefined) {
      const session = this.sessions.get(owner);
      return session === undefined ? [] : [session];
    }
    const seeing: Session[] = [];
    for (const session of this.sessions.values()) {
      if (!session.sees(backend)) continue;
      if (principal === undefined || session.principal === principal) seeing.push(session);
    }
    return seeing;
  }

  /** What a backend is told of its clients as it starts. */
  audienceOf(backend: string, owner?: string, principal?: string): BackendAudience {
    const sessions = this.sessionsSeeing(backend, owner, principal);
    const declared = sessions.flatMap((session) =>
      session.clientCapabilities === undefined ? [] : [session.clientCapabilities],
    );
    return {
      protocolVersion: sessions.find((session) => session.protocolVersion !== undefined)
        ?.protocolVersion,
      capabilities: declared.length === 0 ? undefined : mergeClientCapabilities(declared),
      logLevel: this.logLevelFor(backend, owner, principal),
    };
  }

  /** The level to set on a backend: its owner's, or the most verbose its sessions asked for. */
  logLevelFor(backend: string, owner?: string, principal?: string): LoggingLevel | undefined {
    if (owner !== undefined) return this.sessions.get(owner)?.logLevel;
    return sharedLogLevel(
      this.sessionsSeeing(backend, undefined, principal).map((session) => session.logLevel),
    );
  }

  /**
   * True when a live session other than `sessionId` that shares `backend` subscribed to `uri` (the
   * backend's own URI, whatever URI each session exposes for it).
   */
  subscribedElsewhere(sessionId: string, backend: string, uri: string): boolean {
    return this.sessionsSeeing(backend).some(
      (session) => session.id !== sessionId && session.subscribesTo(backend, uri),
    );
  }

  /** Routes one backend event to the sessions it concerns. */
  route(event: BackendEvent, owner: string | undefined, principal?: string): void {
    switch (event.type) {
      case "changed":
        for (const session of this.sessionsSeeing(event.backend, owner, principal))
          session.refresh();
        return;
      case "notification": {
        if (event.notification.method === TASK_STATUS_NOTIFICATION) {
          this.#deliverTaskStatus(event.backend, event.notification, owner);
          return;
        }
        // A notification about a call reaches only its caller; others reach every client.
        const cause = event.cause;
        for (const session of this.sessionsSeeing(event.backend, owner, principal)) {
          if (cause === undefined) session.deliver(event.backend, event.notification);
          else if (session.id === cause.caller)
            session.deliver(event.backend, event.notification, cause.requestId);
        }
        return;
      }
      case "recorded": {
        this.#telemetry.record(event.event);
        // Tell the clients of a backend that it went down or came back, in their own log.
        const line = describeLifecycleEvent(event.event);
        const backend = event.event.backend;
        if (line === undefined || backend === undefined) return;
        for (const session of this.sessionsSeeing(backend, owner, principal))
          session.log(line.level, line.text);
        return;
      }
      case "server-request":
        event.respond(this.#relayRequest(event, owner, principal));
        return;
    }
  }

  /**
   * A task's status reaches the session that owns the task, under the router's id; a task no
   * session owns (unknown, expired, a modern caller's) is told to nobody: its id is the backend's.
   */
  #deliverTaskStatus(
    backend: string,
    notification: JSONRPCNotification,
    owner: string | undefined,
  ): void {
    if (this.#tasks === undefined) return;
    const routed = routeTaskStatus(this.#tasks, backend, notification.params, owner);
    if (routed === undefined) return;
    const sessionId = sessionOfTaskCaller(routed.caller);
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    session?.deliver(backend, { ...notification, params: routed.params });
  }

  /**
   * A backend's request naming one of its tasks (`_meta["io.modelcontextprotocol/related-task"]`)
   * goes to the session the task was created on, naming the task by the router's id (a modern
   * caller's front then holds it as the task's input); any other request is routed by cause.
   */
  async #relayRequest(
    request: ServerRequestEvent,
    owner: string | undefined,
    principal: string | undefined,
  ): Promise<unknown> {
    const backendTaskId = relatedTaskOf(request.params);
    if (this.#tasks === undefined || backendTaskId === undefined) {
      return await this.#relay(request, owner, principal);
    }
    const accept = (route: TaskRoute) => owner === undefined || sessionOfRoute(route) === owner;
    let route = this.#tasks.findRelated(request.backend, backendTaskId, accept);
    if (route === undefined) {
      const routed = await this.#tasks.routed(request.backend, backendTaskId, ROUTE_WAIT_MS);
      route = routed !== undefined && accept(routed) ? routed : undefined;
    }
    const sessionId = route === undefined ? undefined : sessionOfRoute(route);
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (route === undefined || session === undefined || !session.initialized) {
      return await this.#relay(request, owner, principal);
    }
    const params = {
      ...(request.params as Record<string, unknown>),
      _meta: {
        ...((request.params as { _meta?: Record<string, unknown> })._meta ?? {}),
        [RELATED_TASK_META_KEY]: { taskId: route.taskId },
      },
    };
    const related = request.cause?.caller === session.id ? request.cause.requestId : undefined;
    return await session.relay({ ...request, params }, related);
  }

  #relay(
    request: ServerRequestEvent,
    owner: string | undefined,
    principal: string | undefined,
  ): Promise<unknown> {
    const audience = this.sessionsSeeing(request.backend, owner, principal)
      .filter((session) => session.initialized)
      .map((session) => session.id);
    const target = chooseRelayTarget(request, audience, owner);
    if ("refused" in target) {
      this.#telemetry.record({
        event_type: "request.refused",
        status: "failure",
        backend: request.backend,
        method: request.method,
        data: { reason: target.refused },
      });
      return Promise.reject(
        new JSONRPCError(
          GatewayErrorCode.RelayTargetUnknown,
          `The gateway cannot tell which client ${request.method} is for: ${target.refused}`,
          { backend: request.backend, method: request.method },
        ),
      );
    }
    const session = this.sessions.get(target.session) as Session;
    const related = request.cause?.caller === session.id ? request.cause.requestId : undefined;
    return session.relay(request, related);
  }
}
