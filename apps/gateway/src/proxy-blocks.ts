import type { IgnoredBlocks } from "@patchbay/router";

/**
 * The blocks of a config file that only `patchbay-proxy` reads (the HTTP proxy's own, which
 * `@patchbay/http-gateway` defines, and the router's blocks only a proxy uses): this app drops them
 * unread, with one warning naming them, so that it runs a proxy's config file. `limits.tools`, the
 * per-tool limits, holds here too. Named here rather than imported so that this app does not
 * depend on the HTTP front.
 */
export const PROXY_ONLY_BLOCKS: IgnoredBlocks = {
  names: ["auth", "limits", "http", "cluster", "modern", "profiles", "credentials"],
  readBy: "patchbay-proxy",
};
