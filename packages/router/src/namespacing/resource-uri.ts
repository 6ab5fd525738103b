/** The scheme of rewritten resource URIs: `patchbay://<namespace>/<original URI>`. */
export const REWRITTEN_RESOURCE_URI_SCHEME = "patchbay";

const prefix = `${REWRITTEN_RESOURCE_URI_SCHEME}://`;

/** A resource URI as its backend spells it, with the namespace that disambiguates it. */
export interface QualifiedResourceUri {
  readonly namespace: string;
  readonly uri: string;
}

/**
 * Rewrites a resource URI (or URI template) that two backends both expose, reversibly:
 * `file:///a` of namespace `docs` becomes `patchbay://docs/file:///a`. The original is kept verbatim
 * after the first `/` so that URI templates stay templates. The namespace must be non-empty and free
 * of `/`, which `[A-Za-z0-9_.-]` namespaces are.
 */
export function formatResourceUri(namespace: string, uri: string): string {
  return `${prefix}${namespace}/${uri}`;
}

/** The namespace and original URI of a rewritten URI, or `undefined` if `uri` was not rewritten. */
export function parseResourceUri(uri: string): QualifiedResourceUri | undefined {
  if (!uri.startsWith(prefix)) return undefined;
  const slash = uri.indexOf("/", prefix.length);
  if (slash <= prefix.length) return undefined;
  return { namespace: uri.slice(prefix.length, slash), uri: uri.slice(slash + 1) };
}
