import { InvalidParamsError, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { SUBSCRIPTION_ID_META_KEY, type v2025_11_25 } from "@patchbay/mcp-types";
import type { SessionHost } from "../session-host.js";
import type { ModernRequestContext } from "./modern-context.js";

/** Most `subscriptions/listen` streams open at once per server (a peer-facing bound). */
export const MAX_LISTEN_STREAMS = 1000;
/** Most resource URIs one listen stream may subscribe to. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1000;

/** What a listen stream asked for, as the server agreed it. */
interface Filter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

/** A change a listen stream may be told about. */
type Change = { kind: "tools" | "prompts" | "resources" } | { kind: "updated"; uri: string };

/**
 * `subscriptions/listen` (MCP 2026-07-28): each stream first gets
 * `notifications/subscriptions/acknowledged` with the subset the server agreed to, then only the
 * notifications it asked for, each tagged with `_meta["io.modelcontextprotocol/subscriptionId"]`
 * (the listen request's id). The stream lasts until the client closes it (its `signal`).
 */
export class ModernSubscriptions {
  readonly #host: SessionHost;
  readonly #streams = new Set<(change: Change) => void>();

  constructor(host: SessionHost) {
    this.#host = host;
    host.tools.onChange(() => this.#emit({ kind: "tools" }));
    host.prompts.onChange(() => this.#emit({ kind: "prompts" }));
    host.resources.onChange(() => this.#emit({ kind: "resources" }));
    host.resourceTemplates.onChange(() => this.#emit({ kind: "resources" }));
  }

  /** Tells streams subscribed to `uri` that it changed. */
  resourceUpdated(uri: string): void {
    this.#emit({ kind: "updated", uri });
  }

  /** Serves one listen request until the client goes away. */
  async listen(
    id: JSONRPCId,
    params: Record<string, unknown>,
    context: ModernRequestContext,
  ): Promise<Record<string, unknown>> {
    const agreed = this.#agree(params.notifications);
    if (this.#streams.size >= MAX_LISTEN_STREAMS) {
      throw new InvalidParamsError(`Too many subscriptions/listen streams (${MAX_LISTEN_STREAMS})`);
    }
    const tag = { [SUBSCRIPTION_ID_META_KEY]: id };
    const send = (method: string, body: Record<string, unknown> = {}) =>
      context.notify(method, { ...body, _meta: tag });
    const stream = (change: Change) => {
      if (change.kind === "updated") {
        if (agreed.resourceSubscriptions?.includes(change.uri) === true) {
          send("notifications/resources/updated", { uri: change.uri });
        }
      } else if (agreed[`${change.kind}ListChanged`] === true) {
        send(`notifications/${change.kind}/list_changed`);
      }
    };
    send("notifications/subscriptions/acknowledged", { notifications: agreed });
    this.#streams.add(stream);
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.#streams.delete(stream);
    return { _meta: tag };
  }

  #agree(requested: unknown): Filter {
    if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
      throw new InvalidParamsError('subscriptions/listen: "notifications" must be an object');
    }
    const asked = requested as Record<string, unknown>;
    const capabilities: v2025_11_25.ServerCapabilities = this.#host.capabilities();
    const agreed: Filter = {};
    if (asked.toolsListChanged === true && capabilities.tools !== undefined) {
      agreed.toolsListChanged = true;
    }
    if (asked.promptsListChanged === true && capabilities.prompts !== undefined) {
      agreed.promptsListChanged = true;
    }
    if (asked.resourcesListChanged === true && capabilities.resources !== undefined) {
      agreed.resourcesListChanged = true;
    }
    const uris = asked.resourceSubscriptions;
    if (uris !== undefined && capabilities.resources !== undefined) {
      if (
        !Array.isArray(uris) ||
        uris.length > MAX_RESOURCE_SUBSCRIPTIONS ||
        !uris.every((uri) => typeof uri === "string")
      ) {
        throw new InvalidParamsError(
          `subscriptions/listen: "resourceSubscriptions" must be at most ${MAX_RESOURCE_SUBSCRIPTIONS} URIs`,
        );
      }
      agreed.resourceSubscriptions = uris as string[];
    }
    return agreed;
  }

  #emit(change: Change): void {
    for (const stream of [...this.#streams]) stream(change);
  }
}
