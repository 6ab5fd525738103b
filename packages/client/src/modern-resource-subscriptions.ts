import type { Connection } from "@patchbay/jsonrpc-core";
import { openSubscription, type Subscription } from "./modern-listen.js";
import type { ModernSession } from "./modern-session.js";

/** Most resources `subscribeResource` follows at once in the modern era. */
export const MAX_MODERN_RESOURCE_SUBSCRIPTIONS = 1000;

/**
 * `subscribeResource`/`unsubscribeResource` in the modern era (2026-07-28 has no
 * `resources/subscribe`): one `subscriptions/listen` stream carries every subscribed URI, and is
 * replaced by a new one whenever the set changes (the new one is acknowledged before the old one
 * closes, so no update is missed).
 */
export class ModernResourceSubscriptions {
  readonly #uris = new Set<string>();
  #current: Subscription | undefined;
  #queue: Promise<void> = Promise.resolve();

  /** Adds `uri` to the followed set. */
  subscribe(connection: Connection, session: ModernSession, uri: string): Promise<void> {
    if (!this.#uris.has(uri) && this.#uris.size >= MAX_MODERN_RESOURCE_SUBSCRIPTIONS) {
      return Promise.reject(
        new RangeError(`At most ${MAX_MODERN_RESOURCE_SUBSCRIPTIONS} resources can be subscribed`),
      );
    }
    this.#uris.add(uri);
    return this.#reopen(connection, session);
  }

  /** Removes `uri` from the followed set. */
  unsubscribe(connection: Connection, session: ModernSession, uri: string): Promise<void> {
    this.#uris.delete(uri);
    return this.#reopen(connection, session);
  }

  #reopen(connection: Connection, session: ModernSession): Promise<void> {
    const step = this.#queue.then(async () => {
      const previous = this.#current;
      this.#current =
        this.#uris.size === 0
          ? undefined
          : await openSubscription(connection, session, {
              resourceSubscriptions: [...this.#uris],
            });
      await previous?.close();
    });
    this.#queue = step.catch(() => undefined);
    return step;
  }
}
