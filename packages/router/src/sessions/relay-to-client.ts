import { type Connection, JSONRPCError, type JSONRPCId } from "@patchbay/jsonrpc-core";
import type { ServerRequestEvent, ServerToClientMethod } from "../backends/backend-events.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import type { RouterState } from "../router/router-state.js";
import type { Params } from "./params.js";

/** The `_meta` key that names the backend behind a relayed request. */
export const BACKEND_META_KEY = "io.patchbay/backend";

const requiredClientCapability: Record<ServerToClientMethod, "sampling" | "elicitation" | "roots"> =
  {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "roots/list": "roots",
  };

/** Counts of refused server-to-client requests: backend name -> method -> count. */
export type RefusalCounts = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * Relays backends' requests to one client: refused (-32005, counted for `gateway_status`) when the
 * client lacks the capability; else sent tagged with the asking backend in
 * `_meta["io.patchbay/backend"]`, related to the client's call that caused it (so over Streamable
 * HTTP it rides that call's stream), and bounded by the backend's `maxTimeoutMs`.
 */
export class ClientRelay {
  readonly refused = new Map<string, Map<string, number>>();
  readonly #connection: Connection;
  readonly #state: RouterState;
  readonly #capabilities: () => Readonly<Record<string, unknown>> | undefined;

  constructor(
    connection: Connection,
    state: RouterState,
    capabilities: () => Readonly<Record<string, unknown>> | undefined,
  ) {
    this.#connection = connection;
    this.#state = state;
    this.#capabilities = capabilities;
  }

  async relay(
    request: ServerRequestEvent,
    relatedRequestId: JSONRPCId | undefined,
    maxTimeoutMs: number,
  ): Promise<unknown> {
    return await this.ask(request.backend, request.method, request.params, {
      signal: request.signal,
      timeoutMs: maxTimeoutMs,
      relatedRequestId,
    });
  }

  /**
   * Sends the client `method` for `backend` (refused, and counted, when the client lacks its
   * capability); also what the router asks for a backend's task (see the tasks bridge).
   */
  async ask(
    backend: string,
    method: ServerToClientMethod,
    params: unknown,
    options: { signal: AbortSignal; timeoutMs: number; relatedRequestId: JSONRPCId | undefined },
  ): Promise<unknown> {
    const capability = requiredClientCapability[method];
    if (this.#capabilities()?.[capability] === undefined) {
      const counts = this.refused.get(backend) ?? new Map<string, number>();
      counts.set(method, (counts.get(method) ?? 0) + 1);
      this.refused.set(backend, counts);
      this.#state.telemetry.record({
        event_type: "request.refused",
        status: "failure",
        backend,
        method,
        data: { reason: `the client did not declare the ${capability} capability` },
      });
      throw new JSONRPCError(
        GatewayErrorCode.CapabilityNotSupported,
        `The connected client does not support ${method} (no ${capability} capability)`,
        { backend, method },
      );
    }
    const { relatedRequestId } = options;
    return await this.#connection.request(method, tagged(params, backend), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
    });
  }
}

/** The params with the asking backend named in `_meta` (other `_meta` keys kept). */
function tagged(params: unknown, backend: string): Params {
  const base =
    typeof params === "object" && params !== null && !Array.isArray(params)
      ? (params as Params)
      : {};
  const meta =
    typeof base._meta === "object" && base._meta !== null && !Array.isArray(base._meta)
      ? (base._meta as Params)
      : {};
  return { ...base, _meta: { ...meta, [BACKEND_META_KEY]: backend } };
}
