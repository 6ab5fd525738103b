import type { Connection, RequestContext } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { ClientHandlers, ClientRequestContext } from "./client-handlers.js";
import type { JsonSchemaChecks } from "./json-schema-checks.js";

/**
 * Answers the server's requests with the handlers given (each one declared a capability), and
 * `ping`. An accepted elicitation answer is checked against the requested schema before it is sent.
 */
export function installClientHandlers(
  target: Connection,
  handlers: ClientHandlers,
  checks: JsonSchemaChecks,
): void {
  const { sampling, elicitation, roots } = handlers;
  if (sampling !== undefined) {
    target.handle("sampling/createMessage", (params, context) =>
      sampling(params as never, handlerContext(context)),
    );
  }
  if (elicitation !== undefined) {
    target.handle("elicitation/create", async (params, context) => {
      const request = params as unknown as v2025_11_25.ElicitRequestParams;
      const answer = await elicitation(request, handlerContext(context));
      await checks.checkElicitationAnswer(request, answer);
      return answer;
    });
  }
  if (roots !== undefined)
    target.handle("roots/list", (_params, context) => roots(handlerContext(context)));
  target.handle("ping", () => ({}));
}

/** The context a server-to-client handler gets: the signal, and the relation when known. */
function handlerContext(context: RequestContext): ClientRequestContext {
  const related = context.info.relatedRequestId;
  return related === undefined
    ? { signal: context.signal }
    : { signal: context.signal, relatedRequestId: related };
}
