import type { Backend } from "../backends/backend.js";
import type { RouterSession } from "../sessions/router-session.js";

/**
 * One backend as `gateway_status` shows it: status, namespace, counts, transport, negotiated
 * revision, its capabilities and those relayed to it, restarts, last error, uptime, and the
 * server-to-client requests refused for `sessions`. `viewer`, when given, counts the tools that
 * session's catalogue exposes (after conflicts and filters).
 */
export function describeBackend(
  backend: Backend,
  sessions: readonly RouterSession[],
  viewer?: RouterSession,
): Record<string, unknown> {
  const listing = backend.listing;
  const result = backend.initializeResult;
  const refused: Record<string, number> = {};
  for (const session of sessions) {
    for (const [method, count] of session.refused.get(backend.name) ?? []) {
      refused[method] = (refused[method] ?? 0) + count;
    }
  }
  const exposedTools = viewer?.catalogue().toolNamesOf(backend.name).length;
  return {
    status: backend.status,
    namespace: backend.config.namespace,
    tool_count: exposedTools ?? listing?.tools?.length ?? 0,
    prompt_count: listing?.prompts?.length ?? 0,
    resource_count: listing?.resources?.length ?? 0,
    transport: backend.config.transport,
    isolation: backend.config.isolation,
    start: backend.config.start,
    protocol_version: result?.protocolVersion ?? null,
    server_info: result?.serverInfo ?? null,
    capabilities: result?.capabilities ?? null,
    relayed_capabilities: backend.declaredCapabilities ?? null,
    restarts: backend.restarts,
    last_error: backend.lastError ?? null,
    uptime_ms: backend.uptimeMs() ?? null,
    refused_requests: refused,
  };
}
