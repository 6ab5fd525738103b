import type { IncomingMessage, ServerResponse } from "node:http";
import { parsePinSelector, type Router } from "@patchbay/router";
import { readBody, readBodyOrRefuse, writeJsonBody } from "@patchbay/transport-http";
import { isRefusal, type Refusal } from "../admission/admission.js";
import type { FrontAdmission } from "../admission/front-admission.js";
import { methodNotAllowed } from "./gateway-path.js";

/** Largest body `POST /pins/approve` reads. */
const MAX_APPROVE_BODY_BYTES = 16 * 1024;

/**
 * The operator's pin API: `GET /pins` (every pin, and each withheld definition with its diff) and
 * `POST /pins/approve` (`{"tool": "<exposed name>"}` or `{"backend": "<key>", "all": true}`).
 * The entry passes the same admission as an MCP endpoint's default profile (401 without a valid
 * token), then only a static token with `operator: true` is served (403 for anyone else, and for
 * everyone when the proxy has no tokens).
 */
export async function servePins(
  kind: "pins" | "pins-approve",
  request: IncomingMessage,
  response: ServerResponse,
  parts: { readonly router: Router; readonly admission: FrontAdmission },
): Promise<Refusal | undefined> {
  const method = kind === "pins" ? "GET" : "POST";
  if (request.method !== method) return methodNotAllowed(request, method);
  const identity = await parts.admission.entry(request, undefined, undefined);
  if (isRefusal(identity)) return identity;
  if (identity.operator !== true) {
    return { status: 403, message: `${identity.name} is not an operator's token (operator: true)` };
  }
  const { pins } = parts.router;
  if (kind === "pins") {
    writeJsonBody(response, 200, { pins: pins.list(), withheld: pins.withheld() });
    return undefined;
  }
  const text = await readBodyOrRefuse(
    { readBody: (max) => readBody(request, max) },
    response,
    MAX_APPROVE_BODY_BYTES,
  );
  if (text === undefined) return undefined;
  const selector = parsePinSelector(text);
  if (selector === undefined) {
    return {
      status: 400,
      message: 'expected {"tool": "<exposed name>"} or {"backend": "<key>", "all": true}',
    };
  }
  const approved = await pins.approve(selector);
  if (approved.length === 0) return { status: 404, message: "nothing withheld matches" };
  parts.router.telemetry.record({
    event_type: "pins.approved",
    data: { names: approved, by: identity.name },
  });
  writeJsonBody(response, 200, { approved });
  return undefined;
}
