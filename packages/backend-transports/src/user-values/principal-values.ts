import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type BackendConfig, credentialSlotsOf, setByUser } from "@patchbay/router";
import { BodyTooLargeError, readBody } from "@patchbay/transport-http";
import type { PrincipalValueStore } from "../oauth/principal-connect.js";
import { formPage, messagePage, type ValuesForm } from "./values-pages.js";

/** Options of {@link createPrincipalValues}. */
export interface PrincipalValuesOptions {
  /** The origin browsers reach the program at (`https://mcp.example.com`), read on each use. */
  readonly origin: () => string;
  /** The config's backends now (read on each use, so a reload applies). */
  readonly backends: () => readonly BackendConfig[];
  readonly store: PrincipalValueStore;
  /** How long a link stays usable. Default 600 000 (10 min). */
  readonly linkTtlMs?: number;
  /** A principal stored its values for a backend (never given the values). */
  readonly onSaved?: (principal: string, backend: string) => void;
}

/**
 * The pages on which a principal enters its own values for a per-principal backend with
 * `credentials.setByUser`, served on the program's origin at `/connect/<backend>`.
 */
export interface PrincipalValues {
  /** A new one-time link on which `principal` enters its values for `backend`; `onSaved` once done. */
  valuesUrl(principal: string, backend: string, onSaved?: () => void): string;
  /** True for `/connect/<backend>` of a backend whose principals set their own values. */
  handles(pathname: string): boolean;
  handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Forgets every link. */
  close(): void;
}

const CONNECT_PATH = "/connect/";

/** The largest form body read: a few values, each at most a few kilobytes. */
export const MAX_VALUES_BODY_BYTES = 64 * 1024;

/** The form field of a slot's value (the link's own field is `link`). */
export const slotField = (slot: string) => `slot:${slot}`;

/** Control characters a header value cannot carry (tab aside): CR and LF would split it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is refused
const HEADER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

interface ValuesLink {
  readonly principal: string;
  readonly backend: string;
  readonly expiresAt: number;
  readonly onSaved: (() => void) | undefined;
}

const UNUSABLE_LINK = "This link is unknown, used or expired: call the tool again for a new one.";

/**
 * Links on which a principal without values for a backend's slots enters them (unguessable: 32
 * random bytes, bound to that principal and backend, usable once, short-lived): `GET` shows a form
 * with one password field per slot (names only, never a stored value), the `POST` (the link in its
 * body, from the program's own origin) stores each value sealed under that principal, backend and
 * slot, and spends the link with the principal's other links to that backend.
 */
export function createPrincipalValues(options: PrincipalValuesOptions): PrincipalValues {
  const ttlMs = options.linkTtlMs ?? 600_000;
  const links = new Map<string, ValuesLink>();

  const backendOf = (name: string): BackendConfig | undefined => {
    const config = options.backends().find((backend) => backend.name === name);
    return config !== undefined && setByUser(config) ? config : undefined;
  };

  function valuesUrl(principal: string, backend: string, onSaved?: () => void): string {
    const now = Date.now();
    for (const [id, link] of links) if (link.expiresAt <= now) links.delete(id);
    const id = randomBytes(32).toString("base64url");
    links.set(id, { principal, backend, expiresAt: now + ttlMs, onSaved });
    const url = new URL(`${CONNECT_PATH}${encodeURIComponent(backend)}`, options.origin());
    url.searchParams.set("link", id);
    return url.href;
  }

  /** The usable link `id` to `backend`, or none. */
  const linkOf = (id: string, backend: string): ValuesLink | undefined => {
    const link = links.get(id);
    return link !== undefined && link.backend === backend && link.expiresAt > Date.now()
      ? link
      : undefined;
  };

  function showForm(url: URL, backend: BackendConfig, response: ServerResponse): void {
    const id = url.searchParams.get("link") ?? "";
    const link = linkOf(id, backend.name);
    if (link === undefined) {
      messagePage(response, 400, UNUSABLE_LINK);
      return;
    }
    const form: ValuesForm = {
      action: `${CONNECT_PATH}${encodeURIComponent(backend.name)}`,
      link: id,
      backend: backend.name,
      principal: link.principal,
      fields: credentialSlotsOf(backend).map((slot) => ({ slot, name: slotField(slot) })),
    };
    formPage(response, form);
  }

  async function save(
    request: IncomingMessage,
    backend: BackendConfig,
    response: ServerResponse,
  ): Promise<void> {
    if (!fromOrigin(request, options.origin())) {
      return messagePage(response, 403, "This form may only be sent from its own page.");
    }
    const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      return messagePage(response, 415, "Expected the form's own encoding.");
    }
    let body: string;
    try {
      body = await readBody(request, MAX_VALUES_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      return messagePage(response, 413, `The form is limited to ${MAX_VALUES_BODY_BYTES} bytes.`);
    }
    const fields = new URLSearchParams(body);
    const id = fields.get("link") ?? "";
    const link = linkOf(id, backend.name);
    if (link === undefined) return messagePage(response, 400, UNUSABLE_LINK);
    const values = valuesOf(fields, backend);
    if ("refused" in values) return messagePage(response, 400, values.refused);
    // Spent before the write, so the same form sent twice stores once; given back should the
    // write fail. The replicas' store (Redis) writes asynchronously: "Saved" only once it is.
    links.delete(id);
    try {
      await options.store.replace(link.principal, backend.name, values.values);
    } catch {
      links.set(id, link);
      return messagePage(response, 503, "Your values could not be stored now: try again soon.");
    }
    // The principal's values are stored: its other links to this backend are spent with this one,
    // and whoever was sent one (a client waiting on its URL elicitation) is told as well.
    const spent = [...links].filter(
      ([, other]) => other.principal === link.principal && other.backend === backend.name,
    );
    for (const [other] of spent) links.delete(other);
    options.onSaved?.(link.principal, backend.name);
    link.onSaved?.();
    for (const [, other] of spent) if (other !== link) other.onSaved?.();
    messagePage(response, 200, "Saved: go back to your MCP client and call again.");
  }

  return {
    valuesUrl,
    handles: (pathname) =>
      pathname.startsWith(CONNECT_PATH) && backendOf(backendNameOf(pathname)) !== undefined,
    async handleRequest(request, response) {
      const url = new URL(request.url ?? "/", "http://program");
      const backend = backendOf(backendNameOf(url.pathname));
      if (backend === undefined) return messagePage(response, 404, "There is no such backend.");
      if (request.method === "GET") return showForm(url, backend, response);
      if (request.method === "POST") return save(request, backend, response);
      response.writeHead(405, { allow: "GET, POST" }).end();
    },
    close: () => links.clear(),
  };
}

function backendNameOf(pathname: string): string {
  try {
    return decodeURIComponent(pathname.slice(CONNECT_PATH.length));
  } catch {
    return "";
  }
}

/**
 * True for a request whose `Origin` is the program's (`origin`, that of the links it mints): a
 * browser sends `Origin` with every form `POST`, so a request without one is refused too, and so is
 * one naming whatever its `Host` says (a rebound DNS name would).
 */
function fromOrigin(request: IncomingMessage, origin: string): boolean {
  return request.headers.origin === new URL(origin).origin;
}

/**
 * A value for each of `backend`'s slots from the form, or why they are refused (never quoting a
 * value): an empty or missing value, a NUL, or in a header a line break or other control character.
 */
function valuesOf(
  fields: URLSearchParams,
  backend: BackendConfig,
): { readonly values: Record<string, string> } | { readonly refused: string } {
  const values: Record<string, string> = {};
  const header = backend.transport !== "stdio";
  for (const slot of credentialSlotsOf(backend)) {
    const value = fields.get(slotField(slot)) ?? "";
    if (value === "") return { refused: `Enter a value for ${slot}: it is empty.` };
    if (value.includes("\u0000")) return { refused: `The value for ${slot} contains a NUL.` };
    if (header && HEADER_CONTROL.test(value)) {
      return {
        refused: `The value for ${slot} contains a line break or another control character, which an HTTP header cannot carry.`,
      };
    }
    values[slot] = value;
  }
  return { values };
}
