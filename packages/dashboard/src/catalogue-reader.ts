import { randomBytes } from "node:crypto";
import {
  type Connection,
  createConnection,
  createMemoryTransportPair,
} from "@patchbay/jsonrpc-core";
import { LATEST_PROTOCOL_VERSION } from "@patchbay/mcp-types";
import { GATEWAY_OWNER, GATEWAY_TOOLS, type Router } from "@patchbay/router";

const builtInNames = new Set(GATEWAY_TOOLS.map((tool) => tool.name));

/** True for the name of a tool the router serves itself (`gateway_status`, `get_events`). */
export const isBuiltInTool = (name: string): boolean => builtInNames.has(name);

/** One tool of the catalogue as clients of the default endpoint see it. */
export interface CatalogueTool {
  /** The exposed (namespaced) name. */
  readonly name: string;
  /**
   * The backend that owns it, as the router routes it (`router.ownerOf`); `gateway` for the
   * router's own tools, `unknown` when its backend left the catalogue since it was listed.
   */
  readonly backend: string;
  /** True for the router's own tools (the page says "built-in", not a backend's name). */
  readonly builtIn?: true;
}

/** Reads the router's catalogue through one internal session of its own. */
export interface CatalogueReader {
  /** The tools, fetched again when the catalogue changed or the last read is older than `maxAgeMs`. */
  tools(): Promise<CatalogueTool[]>;
  /** The trace id every request of the internal session carries (the live feed leaves it out). */
  readonly traceId: string;
  /** The router's id of the internal session, once opened (the session list leaves it out). */
  readonly sessionId: string | undefined;
  /** Forgets the last read: the next `tools()` asks the router again. */
  invalidate(): void;
  close(): Promise<void>;
}

/** Options of {@link createCatalogueReader}. */
export interface CatalogueReaderOptions {
  /** How long a read is reused. Default 5,000 ms. */
  readonly maxAgeMs?: number;
  /** Pages read at most (a peer controls the catalogue's size). Default 50. */
  readonly maxPages?: number;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** The trace id of the internal session's requests (32 hex digits). Default: a random one. */
  readonly traceId?: string;
  /** Called when the router says the tool list changed (once the internal session is open). */
  readonly onListChanged?: () => void;
}

/**
 * The router exposes no catalogue of its own, so the dashboard asks as a client would: one session on
 * an in-memory transport, opened at the first read, `tools/list` page by page. Its requests carry one
 * trace id so they can be told apart from clients' calls.
 */
export function createCatalogueReader(
  router: Router,
  options: CatalogueReaderOptions = {},
): CatalogueReader {
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  const maxPages = options.maxPages ?? 50;
  const now = options.now ?? Date.now;
  const traceId = options.traceId ?? randomBytes(16).toString("hex");
  const meta = () => ({ traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` });
  let connection: Promise<{ client: Connection; sessionId: string }> | undefined;
  let cached: { at: number; tools: CatalogueTool[] } | undefined;
  let sessionId: string | undefined;

  async function open(): Promise<{ client: Connection; sessionId: string }> {
    const [clientSide, routerSide] = createMemoryTransportPair();
    const client = createConnection(clientSide);
    client.onNotification((notification) => {
      if (notification.method !== "notifications/tools/list_changed") return;
      cached = undefined;
      options.onListChanged?.();
    });
    const session = await router.serve(routerSide);
    sessionId = session.id;
    await client.start();
    await client.request("initialize", {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "patchbay-dashboard", version: "1" },
      _meta: meta(),
    });
    await client.notify("notifications/initialized");
    return { client, sessionId: session.id };
  }

  async function read(): Promise<CatalogueTool[]> {
    connection ??= open();
    const { client, sessionId } = await connection;
    const tools: CatalogueTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const result = (await client.request("tools/list", {
        ...(cursor === undefined ? {} : { cursor }),
        _meta: meta(),
      })) as { tools?: { name?: unknown }[]; nextCursor?: unknown };
      for (const tool of result.tools ?? []) {
        if (typeof tool.name === "string") {
          const backend = router.ownerOf(tool.name, { kind: "tool", sessionId });
          tools.push({
            name: tool.name,
            backend: backend ?? "unknown",
            ...(backend === GATEWAY_OWNER && builtInNames.has(tool.name) ? { builtIn: true } : {}),
          });
        }
      }
      if (typeof result.nextCursor !== "string") break;
      cursor = result.nextCursor;
    }
    return tools;
  }

  return {
    traceId,
    get sessionId() {
      return sessionId;
    },
    invalidate() {
      cached = undefined;
    },
    async tools() {
      if (cached !== undefined && now() - cached.at < maxAgeMs) return cached.tools;
      const at = now();
      const tools = await read();
      cached = { at, tools };
      return tools;
    },
    async close() {
      const client = connection;
      connection = undefined;
      if (client !== undefined) await (await client.catch(() => undefined))?.client.close();
    },
  };
}
