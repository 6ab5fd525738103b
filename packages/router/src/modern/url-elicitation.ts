import { JSONRPCError } from "@patchbay/jsonrpc-core";
import {
  createMissingRequiredClientCapabilityError,
  ErrorCode,
  type UrlElicitation,
} from "@patchbay/mcp-types";

/** True when a round's `_meta` client capabilities declare URL-mode elicitation. */
export function declaresUrlElicitation(capabilities: Readonly<Record<string, unknown>>): boolean {
  const elicitation = capabilities.elicitation;
  return (
    typeof elicitation === "object" &&
    elicitation !== null &&
    (elicitation as Record<string, unknown>).url !== undefined
  );
}

/** The URL elicitations of a -32042 `URLElicitationRequired` error, else undefined. */
function urlElicitationsOf(error: unknown): readonly UrlElicitation[] | undefined {
  if (!(error instanceof JSONRPCError) || error.code !== ErrorCode.UrlElicitationRequired) {
    return undefined;
  }
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const valid = listed.filter(
    (entry): entry is UrlElicitation =>
      typeof entry === "object" &&
      entry !== null &&
      typeof (entry as UrlElicitation).url === "string" &&
      typeof (entry as UrlElicitation).message === "string",
  );
  return valid.length === 0 ? undefined : valid;
}

/**
 * A -32042 `URLElicitationRequired` (2025-11-25) answered to a modern caller's call, made modern:
 * 2026-07-28 has neither that error nor `elicitationId`, so a round that declared
 * `elicitation.url` gets an `input_required` result asking each URL elicitation (the caller opens
 * the URL, answers, and sends the call again); otherwise a tool call gets a tool error with the
 * message (which names the URL), and any other request -32021 naming the capability. Any other
 * error is thrown as it was.
 */
export function modernUrlElicitation(
  error: unknown,
  method: string,
  capabilities: Readonly<Record<string, unknown>>,
): unknown {
  const elicitations = urlElicitationsOf(error);
  if (elicitations === undefined) throw error;
  if (declaresUrlElicitation(capabilities)) {
    const inputRequests: Record<string, unknown> = {};
    elicitations.forEach(({ message, url }, index) => {
      inputRequests[`url-${index + 1}`] = {
        method: "elicitation/create",
        params: { mode: "url", message, url },
      };
    });
    return { resultType: "input_required", inputRequests };
  }
  const message = elicitations.map((elicitation) => elicitation.message).join("\n");
  if (method === "tools/call") {
    return { content: [{ type: "text", text: message }], isError: true };
  }
  const refusal = createMissingRequiredClientCapabilityError({ elicitation: { url: {} } }, message);
  throw new JSONRPCError(refusal.code, refusal.message, refusal.data);
}
