import { identityOf } from "./request-gate.js";
import type { StreamableHttpAdoption } from "./session-adoption.js";
import type { StreamableHttpServerTransport } from "./streamable-http-server-transport.js";
import type { EndpointContext } from "./streamable-methods.js";

/**
 * Opens, in this handler, a session that another process (a replica behind the same load balancer)
 * created: a transport with the same id, bound to the same identity, handed to `onSession` as a new
 * session is, but already past `initialize`. The application restores the server session's state.
 * Returns the session's transport when it is open here already.
 */
export async function adoptSession<Request>(
  context: EndpointContext<Request>,
  sessionId: string,
  adoption: StreamableHttpAdoption<Request>,
): Promise<StreamableHttpServerTransport> {
  if (context.stateless) throw new Error("a stateless handler has no sessions to adopt");
  const open = context.sessions.get(sessionId);
  if (open !== undefined) return open;
  const identity = identityOf(adoption.identity, adoption.authInfo);
  const transport = context.newTransport(sessionId, adoption.protocolVersion, identity);
  // The client is past initialize: the full idle timeout applies from the start.
  transport.touch();
  await context.options.onSession(transport, {
    sessionId,
    request: adoption.request,
    authInfo: adoption.authInfo,
    identity,
  });
  return transport;
}
