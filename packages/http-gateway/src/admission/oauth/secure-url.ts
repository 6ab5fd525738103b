import { isLoopbackHost } from "../auth-policy.js";

/**
 * True for an `https:` URL, or an `http:` one to a loopback host: metadata, keys and introspection
 * answers fetched over plain HTTP could be swapped in transit, and only this machine is safe without
 * TLS.
 */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}
