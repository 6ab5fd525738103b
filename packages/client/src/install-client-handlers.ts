import type { Connection } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { ClientHandlers } from "./client-handlers.js";
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
      sampling(params as never, { signal: context.signal }),
    );
  }
  if (elicitation !== undefined) {
    target.handle("elicitation/create", async (params, context) => {
      const request = params as unknown as v2025_11_25.ElicitRequestParams;
      const answer = await elicitation(request, { signal: context.signal });
      await checks.checkElicitationAnswer(request, answer);
      return answer;
    });
  }
  if (roots !== undefined)
    target.handle("roots/list", (_params, context) => roots({ signal: context.signal }));
  target.handle("ping", () => ({}));
}
