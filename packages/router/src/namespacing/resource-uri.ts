/** The scheme of rewritten resource URIs: `patchbay://<namespace>/<original URI>`. */
export const REWRITTEN_RESOURCE_URI_SCHEME = "patchbay";

/** The scheme of MCP Apps UI resources, which hosts require and which a rewrite therefore keeps. */
export const UI_RESOURCE_URI_SCHEME = "ui";

const prefix = `${REWRITTEN_RESOURCE_URI_SCHEME}://`;
const uiPrefix = `${UI_RESOURCE_URI_SCHEME}://`;
/** Ends the namespace in a rewritten `ui://` URI; namespaces (`[A-Za-z0-9_.-]`) never hold it. */
const uiNamespaceEnd = "+";
/** Characters that end a URI's authority: a namespace found past one of them is no namespace. */
const authorityEnd = /[/?#]/;

/** A resource URI as its backend spells it, with the namespace that disambiguates it. */
export interface QualifiedResourceUri {
  readonly namespace: string;
  readonly uri: string;
}

/**
 * Rewrites a resource URI (or URI template) that two backends both expose, reversibly:
 * `file:///a` of namespace `docs` becomes `patchbay://docs/file:///a`, and an MCP Apps URI keeps
 * its scheme with the namespace in front of its authority: `ui://weather/view.html` becomes
 * `ui://docs+weather/view.html`. The rest of the original is kept verbatim so that URI templates
 * stay templates. The namespace must be non-empty and free of `/`, `?`, `#` and `+`, which
 * `[A-Za-z0-9_.-]` namespaces are.
 */
export function formatResourceUri(namespace: string, uri: string): string {
  if (uri.startsWith(uiPrefix)) {
    return `${uiPrefix}${namespace}${uiNamespaceEnd}${uri.slice(uiPrefix.length)}`;
  }
  return `${prefix}${namespace}/${uri}`;
}

/** The namespace and original URI of a rewritten URI, or `undefined` if `uri` was not rewritten. */
export function parseResourceUri(uri: string): QualifiedResourceUri | undefined {
  if (uri.startsWith(uiPrefix)) return parseUiResourceUri(uri);
  if (!uri.startsWith(prefix)) return undefined;
  const slash = uri.indexOf("/", prefix.length);
  if (slash <= prefix.length) return undefined;
  return { namespace: uri.slice(prefix.length, slash), uri: uri.slice(slash + 1) };
}

function parseUiResourceUri(uri: string): QualifiedResourceUri | undefined {
  const end = uri.indexOf(uiNamespaceEnd, uiPrefix.length);
  if (end <= uiPrefix.length) return undefined;
  const namespace = uri.slice(uiPrefix.length, end);
  if (authorityEnd.test(namespace)) return undefined;
  return { namespace, uri: `${uiPrefix}${uri.slice(end + uiNamespaceEnd.length)}` };
}

/** The form a rewritten URI takes, for messages: `ui://<namespace>+weather/view.html`. */
export function describeRewrittenUri(uri: string): string {
  return formatResourceUri("<namespace>", uri);
}
