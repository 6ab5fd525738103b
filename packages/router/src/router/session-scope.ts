import {
  type Connection,
  JSONRPCError,
  type JSONRPCParams,
  type RequestContext,
  type RequestHandler,
} from "@patchbay/jsonrpc-core";
import type { Catalogue, NamedItem } from "../catalogue/build-catalogue.js";
import type { WireErrorObject } from "../errors/map-error.js";
import type { Backend } from "./backend.js";
import type { RouterContext } from "./router-context.js";

/** Request or notification params as an object (positional params are treated as none). */
export type Params = Record<string, unknown>;

/**
 * The params of a request as an object (positional params count as none). Not a copy: handlers
 * read it and build new objects for what they send on, so forwarding copies nothing it need not.
 */
export function asParams(params: JSONRPCParams | undefined): Readonly<Params> {
  return typeof params === "object" && params !== null && !Array.isArray(params)
    ? (params as Params)
    : {};
}

/** A wire error object as a throwable `JSONRPCError` (sent on the wire as is by the Connection). */
export function toJSONRPCError(error: WireErrorObject): JSONRPCError {
  return new JSONRPCError(error.code, error.message, error.data);
}

/** What the request handlers of one client session work with (internal seam). */
export interface SessionScope {
  readonly id: string;
  readonly connection: Connection;
  readonly router: RouterContext;
  /** Handles a request method once the client has sent `initialize` (before: -32600). */
  handle(method: string, handler: RequestHandler): void;
  /** The gateway's own tools this client may see and call (its profile may hide them). */
  gatewayTools(): readonly NamedItem[];
  /** The backend that exposed a tool name before it went down, with its status now. */
  formerOwner(exposedName: string): { backend: string; status: string } | undefined;
  /** Exposed resource URIs this client subscribed to. */
  readonly subscriptions: Set<string>;
  findBackend(name: string): Backend | undefined;
  catalogue(): Catalogue;
  /** Starts lazy backends and waits for those in their first start, until each runs or failed. */
  awaitStartingBackends(): Promise<void>;
  /** Records that the client just read a list as it is now (so no list_changed is owed for it). */
  noteListed(list: "tools" | "prompts" | "resources" | "resourceTemplates"): void;
  /** Sends a request to a backend on behalf of the client, mapping failures to wire errors. */
  forward(
    backend: string,
    method: string,
    params: Params,
    context: RequestContext,
  ): Promise<unknown>;
}
