import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type BackendConfig, credentialSlotsOf, setByUser } from "@patchbay/router";
import { BodyTooLargeError, readBody } from "@patchbay/transport-http";
import {
  type ConnectFlowStore,
  createMemoryConnectFlowStore,
} from "../oauth/connect-flow-store.js";
import { CONNECT_PATH, createLinkMint } from "../oauth/link-mint.js";
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
  /**
   * Where links are kept: by default this program's memory; the replicas' store in Redis
   * (`@patchbay/cluster-redis`, shared with `createPrincipalConnect`) lets a link minted on one
   * replica be opened and sent on another. Its owner closes it.
   */
  readonly flows?: ConnectFlowStore;
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

/** The largest form body read: a few values, each at most a few kilobytes. */
export const MAX_VALUES_BODY_BYTES = 64 * 1024;

/** The form field of a slot's value (the link's own field is `link`). */
export const slotField = (slot: string) => `slot:${slot}`;

/** Control characters a header value cannot carry (tab aside): CR and LF would split it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is refused
const HEADER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * What every program sharing the links hears once `principal` stored its values for `backend`:
 * never the principal's name.
 */
function savedTag(principal: string, backend: string): string {
  return createHash("sha256")
    .update(`values\u0000${principal}\u0000${backend}`)
    .digest("base64url");
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
  const flows = options.flows ?? createMemoryConnectFlowStore();
  // Links minted here, and who to tell once the principal's values for the backend are stored
  // (on any replica): every link of a principal to a backend shares one tag.
  const links = createLinkMint(flows, ttlMs);

  const backendOf = (name: string): BackendConfig | undefined => {
    const config = options.backends().find((backend) => backend.name === name);
    return config !== undefined && setByUser(config) ? config : undefined;
  };

  const valuesUrl = (principal: string, backend: string, onSaved?: () => void): string =>
    links.mint({
      origin: options.origin(),
      principal,
      backend,
      ...(onSaved === undefined ? {} : { onUsed: onSaved, tag: savedTag(principal, backend) }),
    });

  /** The usable link `id` to `backend`, left unspent, or none. */
  const linkOf = async (id: string, backend: string) => {
    if (id === "") return undefined;
    await links.saved();
    const link = await flows.peekLink(id).catch(() => undefined);
    return link?.backend === backend ? link : undefined;
  };

  async function showForm(url: URL, backend: BackendConfig, response: ServerResponse) {
    const id = url.searchParams.get("link") ?? "";
    const link = await linkOf(id, backend.name);
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
    if ((await linkOf(id, backend.name)) === undefined) {
      return messagePage(response, 400, UNUSABLE_LINK);
    }
    const values = valuesOf(fields, backend);
    if ("refused" in values) return messagePage(response, 400, values.refused);
    // Spent before the write (at once, on every replica), so the same form sent twice stores
    // once; given back should the write fail. "Saved" only once the store wrote.
    const link = await flows.spendLink(id).catch(() => undefined);
    if (link === undefined) return messagePage(response, 400, UNUSABLE_LINK);
    try {
      await options.store.replace(link.principal, backend.name, values.values);
    } catch {
      await flows.saveLink(id, link, ttlMs).catch(() => {});
      return messagePage(response, 503, "Your values could not be stored now: try again soon.");
    }
    // The principal's values are stored: its other links to this backend are spent with this one,
    // and whoever was sent one (a client waiting on its URL elicitation), here or elsewhere, told.
    await flows.spendLinksOf(link.principal, backend.name).catch(() => {});
    await flows.connected(savedTag(link.principal, backend.name)).catch(() => {});
    options.onSaved?.(link.principal, backend.name);
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
      if (request.method === "GET") return await showForm(url, backend, response);
      if (request.method === "POST") return save(request, backend, response);
      response.writeHead(405, { allow: "GET, POST" }).end();
    },
    close: () => {
      links.close();
      if (options.flows === undefined) flows.close();
    },
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
