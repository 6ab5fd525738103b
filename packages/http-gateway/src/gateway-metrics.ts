import type { MetricRegistry } from "@patchbay/telemetry";

/** Method and status pairs tallied between two renders. */
const MAX_TALLIED = 256;

/** The HTTP gateway's own Prometheus metrics. */
export interface GatewayMetrics {
  /** A request refused by the gateway (status), and by which rate limit when one. */
  refused(status: number, limitedBy?: "address" | "token"): void;
  /** A JSON-RPC request answered (`ok` or its error code) or cancelled by its client. */
  rpc(method: string, status: "ok" | "cancelled" | number): void;
}

/**
 * Declares `patchbay_http_refused_total{status}`, `patchbay_http_rate_limited_total{by}`,
 * `patchbay_http_rpc_requests_total{method,outcome}` and `patchbay_http_sessions`.
 */
export function createGatewayMetrics(
  registry: MetricRegistry,
  sessionCount: () => number,
): GatewayMetrics {
  const refused = registry.counter({
    name: "patchbay_http_refused_total",
    help: "HTTP requests the gateway refused, by status",
    labelNames: ["status"],
  });
  const rateLimited = registry.counter({
    name: "patchbay_http_rate_limited_total",
    help: "Requests refused by a rate limit, by key kind (address or token)",
    labelNames: ["by"],
  });
  const requests = registry.counter({
    name: "patchbay_http_rpc_requests_total",
    help: "JSON-RPC requests answered to HTTP clients, by method and outcome",
    labelNames: ["method", "outcome"],
    overflowLabels: ["method"],
  });
  const sessions = registry.gauge({
    name: "patchbay_http_sessions",
    help: "Open client sessions (Streamable HTTP, SSE and WebSocket)",
  });
  registry.addCollector(() => sessions.set(undefined, sessionCount()));
  // Answered requests are tallied by method and status and counted before each render: a request
  // calls no metric. Past MAX_TALLIED pairs (methods come from clients) they are counted at once.
  const tallies = new Map<string, Map<"ok" | "cancelled" | number, number>>();
  let tallied = 0;
  const countRpc = (method: string, status: "ok" | "cancelled" | number, count: number) => {
    requests.inc({ method, outcome: status === "ok" ? "ok" : String(status) }, count);
  };
  registry.addCollector(() => {
    for (const [method, byStatus] of tallies)
      for (const [status, count] of byStatus) countRpc(method, status, count);
    tallies.clear();
    tallied = 0;
  });
  return {
    refused(status, limitedBy) {
      refused.inc({ status: String(status) });
      if (limitedBy !== undefined) rateLimited.inc({ by: limitedBy });
    },
    rpc(method, status) {
      const byStatus = tallies.get(method);
      const count = byStatus?.get(status);
      if (count !== undefined) byStatus?.set(status, count + 1);
      else if (tallied < MAX_TALLIED) {
        tallied += 1;
        if (byStatus === undefined) tallies.set(method, new Map([[status, 1]]));
        else byStatus.set(status, 1);
      } else countRpc(method, status, 1);
    },
  };
}
