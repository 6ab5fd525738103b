import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";

/** The files the dashboard serves, by name, with their content types. */
export const DASHBOARD_ASSETS: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "login.html": "text/html; charset=utf-8",
  "dashboard.css": "text/css; charset=utf-8",
  "dashboard.js": "text/javascript; charset=utf-8",
};

/** The `assets` folder next to this module: `src/assets`, copied to `dist/assets` by the build. */
const assetsFolder = new URL("./assets/", import.meta.url);

/**
 * Headers on every dashboard answer: nothing from elsewhere (no CDN, works offline), no framing,
 * no caching of pages that show live state, no referrer sent elsewhere (same-origin: forms keep their Origin).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** Reads the packaged assets once and serves them. */
export interface StaticAssets {
  /** The text of an asset (for templating the login page). */
  text(name: string): Promise<string>;
  /** Writes an asset with its content type, or 404 for a name not in {@link DASHBOARD_ASSETS}. */
  serve(response: ServerResponse, name: string, status?: number, body?: string): Promise<void>;
}

/** Creates the asset server; `folder` defaults to the package's own `assets`. */
export function createStaticAssets(folder: URL = assetsFolder): StaticAssets {
  const cache = new Map<string, Promise<string>>();
  const text = (name: string) => {
    let loaded = cache.get(name);
    if (loaded === undefined) {
      loaded = readFile(new URL(name, folder), "utf8");
      cache.set(name, loaded);
    }
    return loaded;
  };
  return {
    text,
    async serve(response, name, status = 200, body) {
      const type = DASHBOARD_ASSETS[name];
      if (type === undefined || !Object.hasOwn(DASHBOARD_ASSETS, name)) {
        response.writeHead(404, { ...SECURITY_HEADERS, "content-type": "text/plain" });
        response.end("not found");
        return;
      }
      const content = body ?? (await text(name));
      response.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
      response.end(content);
    },
  };
}
