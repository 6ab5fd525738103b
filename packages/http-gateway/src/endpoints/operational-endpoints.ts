import type { ServerResponse } from "node:http";
import type { Router } from "@patchbay/router";
import { PROMETHEUS_CONTENT_TYPE } from "@patchbay/telemetry";
import { writeJsonBody } from "@patchbay/transport-http";
import type { ClusterPlugin } from "../cluster/cluster-plugin.js";
import { readiness } from "./readiness.js";

/** `/healthz` (alive), `/readyz` (backends up, and the cluster's store when clustered) and `/metrics` (Prometheus text). */
export function serveOperational(
  router: Router,
  kind: "healthz" | "readyz" | "metrics",
  response: ServerResponse,
  cluster: ClusterPlugin | undefined,
): void {
  if (kind === "healthz") {
    writeJsonBody(response, 200, { status: "ok" });
  } else if (kind === "readyz") {
    const state = cluster === undefined ? readiness(router) : cluster.readiness(readiness(router));
    writeJsonBody(response, state.ready ? 200 : 503, state);
  } else {
    serveMetrics(router, response);
  }
}

function serveMetrics(router: Router, response: ServerResponse): void {
  const text = router.telemetry.registry.render();
  response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE });
  response.end(text);
}
