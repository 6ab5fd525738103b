import type { NameCodec } from "../namespacing/qualified-name.js";
import {
  describeRewrittenUri,
  formatResourceUri,
  parseResourceUri,
} from "../namespacing/resource-uri.js";
import { exposeUiResourceLinks, uiResourceUrisOf } from "../namespacing/ui-resource-links.js";
import type { CatalogueShaping, FlaggedItem } from "../overrides/catalogue-shaping.js";
import { shapeExposed } from "../overrides/shape-exposed.js";
import type { CatalogueKind, ConflictPolicy, ConflictReport } from "./conflict.js";
import type { NameFilter } from "./name-filter.js";
import { compileResourceTemplate } from "./resource-template-pattern.js";

/** A tool or prompt as a backend lists it: only `name` matters here, the rest passes through. */
export interface NamedItem {
  readonly name: string;
  readonly [key: string]: unknown;
}

/** A resource as a backend lists it. */
export interface ResourceItem {
  readonly uri: string;
  readonly [key: string]: unknown;
}

/** A resource template as a backend lists it. */
export interface ResourceTemplateItem {
  readonly uriTemplate: string;
  readonly [key: string]: unknown;
}

/** What one running backend offers, with how it is to be exposed. */
export interface BackendListing {
  /** The backend's key in the config. */
  readonly backend: string;
  /** Its namespace (`""` exposes names unprefixed). */
  readonly namespace: string;
  readonly tools?: readonly NamedItem[];
  readonly prompts?: readonly NamedItem[];
  readonly resources?: readonly ResourceItem[];
  readonly resourceTemplates?: readonly ResourceTemplateItem[];
  /** Which of its tools (by the backend's own name) are exposed; all when absent. */
  readonly toolFilter?: NameFilter;
}

/** Where an exposed name leads. */
export interface CatalogueEntry {
  /** The backend's key in the config. */
  readonly backend: string;
  /** The name (or URI) as the backend spells it. */
  readonly name: string;
  /** The name (or URI) as clients see it. */
  readonly exposedName: string;
  /** Arguments an override fixes: hidden from clients, added to every call (tools only). */
  readonly fixedArguments?: Readonly<Record<string, unknown>>;
}

/** How to build a catalogue. */
export interface BuildCatalogueOptions {
  readonly codec: NameCodec;
  readonly conflictPolicy: ConflictPolicy;
  /** Tool names the gateway itself serves (such as `gateway_status`); they always win. */
  readonly reservedToolNames?: readonly string[];
  /** Which tools (by exposed name) to keep, for profiles; all when absent. */
  readonly exposedToolFilter?: NameFilter;
  /**
   * Every configured backend with its namespace, running or not: names inside one's namespace (or
   * under its key) belong to it alone. The listings' own when absent.
   */
  readonly namespaces?: readonly { readonly backend: string; readonly namespace: string }[];
  /** Overrides and the description scanner (`shapingOf`); none when absent. */
  readonly shaping?: CatalogueShaping;
}

/** The aggregated, namespaced view of every backend's tools, prompts and resources. */
export interface Catalogue {
  readonly tools: readonly NamedItem[];
  readonly prompts: readonly NamedItem[];
  readonly resources: readonly ResourceItem[];
  readonly resourceTemplates: readonly ResourceTemplateItem[];
  readonly conflicts: readonly ConflictReport[];
  /** Tools and prompts the description scanner flagged (shown or withheld). */
  readonly flagged: readonly FlaggedItem[];
  /** The backend and original name of an exposed tool name. */
  findTool(exposedName: string): CatalogueEntry | undefined;
  /** The backend and original name of an exposed prompt name. */
  findPrompt(exposedName: string): CatalogueEntry | undefined;
  /**
   * The backend and original URI of a URI a client asks for: a listed resource, a rewritten URI, a
   * URI matching one backend's template, or any URI when only one backend offers resources.
   */
  findResource(uri: string): CatalogueEntry | undefined;
  /** The URI clients see for a URI that `backend` uses (for notifications and read results). */
  exposeResourceUri(backend: string, uri: string): string;
  /** True when some URI of `backend` is rewritten (so its results need rewriting at all). */
  rewritesUrisOf(backend: string): boolean;
  /** Exposed tool names per backend (for `gateway_status` tool counts). */
  toolNamesOf(backend: string): readonly string[];
}

const gatewayClaimant = "gateway";

// A catalogue's lookups keep their tables for as long as it lives (each session caches its own):
// a table left empty is this shared one, not an empty Map or Set of its own (about 150 bytes each).
const NO_ENTRIES: ReadonlyMap<string, CatalogueEntry> = new Map();
const NO_KEYS: ReadonlySet<string> = new Set();
const entriesOrNone = (map: ReadonlyMap<string, CatalogueEntry>) =>
  map.size === 0 ? NO_ENTRIES : map;
const keysOrNone = (set: ReadonlySet<string>) => (set.size === 0 ? NO_KEYS : set);

/** Builds the catalogue from listings in config order (the order decides `priority`). */
export function buildCatalogue(
  listings: readonly BackendListing[],
  options: BuildCatalogueOptions,
): Catalogue {
  const nameConflicts: ConflictReport[] = [];
  const uriConflicts: ConflictReport[] = [];
  const uriNamespaces = uriNamespaceOwners(options.namespaces ?? listings);
  const exposing = { policy: options.conflictPolicy, uriNamespaces, conflicts: uriConflicts };
  const resources = exposeUris("resource", listings, exposing);
  const templates = exposeUris("resourceTemplate", listings, exposing);
  const resourceEntries = entriesOrNone(resources.entries);
  const linkedResources = entriesOrNone(resources.linked);
  const droppedResources = keysOrNone(resources.dropped);
  const namespaceOf = new Map<string, string>();
  for (const listing of listings) {
    namespaceOf.set(
      listing.namespace === "" ? listing.backend : listing.namespace,
      listing.backend,
    );
  }
  const rewritten = new Set<string>();
  const rewriting = new Set<string>();
  const uriEntries = [
    ...resources.entries.values(),
    ...resources.linked.values(),
    ...templates.entries.values(),
  ];
  for (const entry of uriEntries) {
    if (entry.exposedName === entry.name) continue;
    rewritten.add(`${entry.backend}\u0000${entry.name}`);
    rewriting.add(entry.backend);
  }
  const rewrittenUris = keysOrNone(rewritten);
  const rewritingBackends = keysOrNone(rewriting);
  // A template past the limits (too many expressions) is still listed but routes no URI.
  const templatePatterns = [...templates.entries.values()].flatMap((entry) => {
    try {
      return [{ entry, pattern: compileResourceTemplate(entry.exposedName) }];
    } catch {
      return [];
    }
  });
  // A URI a backend derives from one of its rewritten templates is rewritten like the template.
  const rewrittenTemplates = [...templates.entries.values()].flatMap((entry) => {
    if (entry.exposedName === entry.name) return [];
    try {
      return [{ backend: entry.backend, pattern: compileResourceTemplate(entry.name) }];
    } catch {
      return [];
    }
  });
  const resourceBackends = listings.filter(
    (listing) => (listing.resources?.length ?? 0) + (listing.resourceTemplates?.length ?? 0) > 0,
  );

  function findResource(uri: string): CatalogueEntry | undefined {
    const listed = resourceEntries.get(uri) ?? linkedResources.get(uri);
    if (listed) return listed;
    const rewritten = parseResourceUri(uri);
    const owner = rewritten && namespaceOf.get(rewritten.namespace);
    if (rewritten && owner !== undefined) {
      return { backend: owner, name: rewritten.uri, exposedName: uri };
    }
    // Overlapping templates of two backends: the one listed first in the config wins.
    const match = templatePatterns.find(({ pattern }) => pattern.test(uri));
    if (match) return { backend: match.entry.backend, name: uri, exposedName: uri };
    const sole = resourceBackends.length === 1 ? resourceBackends[0] : undefined;
    return sole ? { backend: sole.backend, name: uri, exposedName: uri } : undefined;
  }

  function isRewritten(backend: string, uri: string): boolean {
    if (rewrittenUris.has(`${backend}\u0000${uri}`)) return true;
    const asIs = resourceEntries.get(uri) ?? linkedResources.get(uri);
    if (asIs?.backend === backend) return false;
    return rewrittenTemplates.some(
      (template) => template.backend === backend && template.pattern.test(uri),
    );
  }

  function exposeResourceUri(backend: string, uri: string): string {
    if (!isRewritten(backend, uri)) return uri;
    const listing = listings.find((candidate) => candidate.backend === backend);
    const namespace = listing?.namespace === "" ? backend : (listing?.namespace ?? backend);
    return formatResourceUri(namespace, uri);
  }

  // A tool's UI link follows its resource: rewritten with it, or removed when it was not exposed.
  const exposeToolUi = (tool: NamedItem, backend: string): NamedItem =>
    exposeUiResourceLinks(tool, (uri) =>
      droppedResources.has(`${backend}\u0000${uri}`) ? undefined : exposeResourceUri(backend, uri),
    );
  const flagged: FlaggedItem[] = [];
  const tools = exposeNamed(
    "tool",
    listings,
    options,
    { conflicts: nameConflicts, flagged },
    exposeToolUi,
  );
  const prompts = exposeNamed("prompt", listings, options, { conflicts: nameConflicts, flagged });
  const toolEntries = tools.entries;
  const promptEntries = entriesOrNone(prompts.entries);

  return {
    tools: tools.items,
    prompts: prompts.items,
    resources: resources.items as ResourceItem[],
    resourceTemplates: templates.items as ResourceTemplateItem[],
    conflicts: [...nameConflicts, ...uriConflicts],
    flagged,
    findTool: (name) => toolEntries.get(name),
    findPrompt: (name) => promptEntries.get(name),
    findResource,
    exposeResourceUri,
    rewritesUrisOf: (backend) => rewritingBackends.has(backend),
    toolNamesOf: (backend) =>
      [...toolEntries.values()]
        .filter((entry) => entry.backend === backend)
        .map((entry) => entry.exposedName),
  };
}

interface Exposed<Item> {
  items: Item[];
  entries: Map<string, CatalogueEntry>;
}

function exposeNamed(
  kind: "tool" | "prompt",
  listings: readonly BackendListing[],
  options: BuildCatalogueOptions,
  reports: { conflicts: ConflictReport[]; flagged: FlaggedItem[] },
  expose: (item: NamedItem, backend: string) => NamedItem = (item) => item,
): Exposed<NamedItem> {
  const { codec, conflictPolicy, shaping } = options;
  const { conflicts } = reports;
  const shapingContext = { shaping, claimants: new Map<string, string>(), conflictPolicy, reports };
  const claimants = shapingContext.claimants;
  const owned = ownedPrefixes(options.namespaces ?? listings, codec.separator);
  const items: NamedItem[] = [];
  const entries = new Map<string, CatalogueEntry>();
  if (kind === "tool") {
    for (const name of options.reservedToolNames ?? []) claimants.set(name, gatewayClaimant);
  }
  for (const listing of listings) {
    const source = kind === "tool" ? listing.tools : listing.prompts;
    for (const item of source ?? []) {
      if (kind === "tool" && listing.toolFilter && !listing.toolFilter(item.name)) continue;
      const own = kind === "tool" ? shaping?.backendTool(listing.backend, item.name) : undefined;
      const shownName = own?.name ?? item.name;
      let exposedName = codec.format(listing.namespace, shownName);
      const owner = trespassedOwner(exposedName, listing, owned, codec.separator);
      if (owner !== undefined) {
        const resolution = conflictPolicy === "error" ? "rejected" : "refused";
        conflicts.push({
          kind,
          name: exposedName,
          claimants: [owner, listing.backend],
          winner: owner,
          resolution,
          message: `${kind} "${exposedName}" of ${listing.backend} lies in the namespace of ${owner}; it is not exposed (a backend may not publish names in another backend's namespace).`,
        });
        continue;
      }
      const holder = claimants.get(exposedName);
      if (holder !== undefined) {
        const fallback = codec.format(listing.backend, shownName);
        const canPrefix =
          conflictPolicy === "prefix" && fallback !== exposedName && !claimants.has(fallback);
        const resolution = canPrefix
          ? "prefixed"
          : conflictPolicy === "error"
            ? "rejected"
            : "dropped";
        conflicts.push({
          kind,
          name: exposedName,
          claimants: [holder, listing.backend],
          winner: holder,
          resolution,
          message: describeConflict(
            kind,
            exposedName,
            holder,
            listing.backend,
            resolution,
            fallback,
          ),
        });
        if (!canPrefix) continue;
        exposedName = fallback;
      }
      claimants.set(exposedName, listing.backend);
      if (kind === "tool" && options.exposedToolFilter && !options.exposedToolFilter(exposedName)) {
        continue;
      }
      const candidate = { kind, item, own, exposedName, backend: listing.backend };
      const exposed = shapeExposed(candidate, shapingContext);
      if (exposed === undefined) continue;
      items.push({ ...expose(exposed.item, listing.backend), name: exposed.entry.exposedName });
      entries.set(exposed.entry.exposedName, exposed.entry);
    }
  }
  return { items, entries };
}

/** The name prefixes each backend owns: `<namespace><separator>` and `<key><separator>`. */
function ownedPrefixes(
  backends: readonly { readonly backend: string; readonly namespace: string }[],
  separator: string,
): { backend: string; prefix: string }[] {
  const owned: { backend: string; prefix: string }[] = [];
  for (const { backend, namespace } of backends) {
    owned.push({ backend, prefix: `${backend}${separator}` });
    if (namespace !== "" && namespace !== backend)
      owned.push({ backend, prefix: `${namespace}${separator}` });
  }
  return owned;
}

/**
 * The backend whose namespace `exposedName` lies in, when that is not `listing`'s own: the name
 * starts with another backend's prefix, longer than the listing's own (so `""` trespasses on
 * every prefix, and a shared namespace is no trespass).
 */
function trespassedOwner(
  exposedName: string,
  listing: BackendListing,
  owned: readonly { backend: string; prefix: string }[],
  separator: string,
): string | undefined {
  const ownLength = listing.namespace === "" ? 0 : listing.namespace.length + separator.length;
  for (const { backend, prefix } of owned) {
    if (backend === listing.backend || prefix.length <= ownLength) continue;
    if (exposedName.startsWith(prefix)) return backend;
  }
  return undefined;
}

interface ExposedUris extends Exposed<ResourceItem | ResourceTemplateItem> {
  /** URIs that tools link to their UI but their backend does not list (MCP Apps allows it). */
  linked: Map<string, CatalogueEntry>;
  /** `<backend>\u0000<uri>` of each claim that lost a conflict and is not exposed. */
  dropped: Set<string>;
}

/** A URI a backend claims: one it lists (with the item), or one its tools link to their UI. */
interface UriClaim {
  readonly uri: string;
  readonly item?: ResourceItem | ResourceTemplateItem;
}

function uriClaims(kind: "resource" | "resourceTemplate", listing: BackendListing): UriClaim[] {
  if (kind === "resourceTemplate") {
    return (listing.resourceTemplates ?? []).map((item) => ({ uri: item.uriTemplate, item }));
  }
  const listed: UriClaim[] = (listing.resources ?? []).map((item) => ({ uri: item.uri, item }));
  const linked = (listing.tools ?? []).flatMap((tool) => uiResourceUrisOf(tool));
  return [...listed, ...linked.map((uri) => ({ uri }))];
}

/** The backend each URI namespace (its namespace, or its key when that is `""`) belongs to. */
function uriNamespaceOwners(
  backends: readonly { readonly backend: string; readonly namespace: string }[],
): Map<string, string> {
  const owners = new Map<string, string>();
  for (const { backend, namespace } of backends) {
    owners.set(namespace === "" ? backend : namespace, backend);
  }
  return owners;
}

/** How URIs are exposed: the conflict policy, who owns which URI namespace, where conflicts go. */
interface UriExposing {
  readonly policy: ConflictPolicy;
  readonly uriNamespaces: ReadonlyMap<string, string>;
  readonly conflicts: ConflictReport[];
}

/**
 * The claims of each listing, without those in the rewritten form of another backend's namespace
 * (`ui://victim+…` or `patchbay://victim/…` published by another backend, which would take the
 * place of the victim's own): those are reported `refused` and dropped.
 */
function claimsOutsideOtherNamespaces(
  kind: "resource" | "resourceTemplate",
  listings: readonly BackendListing[],
  exposing: UriExposing,
  dropped: Set<string>,
): { listing: BackendListing; claims: UriClaim[] }[] {
  return listings.map((listing) => {
    const claims = uriClaims(kind, listing).filter(({ uri }) => {
      const rewritten = parseResourceUri(uri);
      const owner = rewritten && exposing.uriNamespaces.get(rewritten.namespace);
      if (owner === undefined || owner === listing.backend) return true;
      const key = `${listing.backend}\u0000${uri}`;
      if (!dropped.has(key)) {
        dropped.add(key);
        exposing.conflicts.push({
          kind,
          name: uri,
          claimants: [owner, listing.backend],
          winner: owner,
          resolution: exposing.policy === "error" ? "rejected" : "refused",
          message: `${kind} "${uri}" of ${listing.backend} lies in the namespace of ${owner}; it is not exposed (a backend may not publish URIs in another backend's namespace).`,
        });
      }
      return false;
    });
    return { listing, claims };
  });
}

function exposeUris(
  kind: "resource" | "resourceTemplate",
  listings: readonly BackendListing[],
  exposing: UriExposing,
): ExposedUris {
  const { policy: conflictPolicy, conflicts } = exposing;
  const key = kind === "resource" ? "uri" : "uriTemplate";
  const dropped = new Set<string>();
  const claimed = claimsOutsideOtherNamespaces(kind, listings, exposing, dropped);
  const owners = new Map<string, string[]>();
  for (const { listing, claims } of claimed) {
    for (const { uri } of claims) {
      const list = owners.get(uri) ?? [];
      if (!list.includes(listing.backend)) list.push(listing.backend);
      owners.set(uri, list);
    }
  }
  const resolution =
    conflictPolicy === "prefix" ? "rewritten" : conflictPolicy === "error" ? "rejected" : "dropped";
  for (const [uri, claimants] of owners) {
    if (claimants.length < 2) continue;
    conflicts.push({
      kind,
      name: uri,
      claimants,
      ...(resolution === "rewritten" ? {} : { winner: claimants[0] }),
      resolution,
      message: describeConflict(
        kind,
        uri,
        claimants[0] ?? "",
        claimants.slice(1).join(", "),
        resolution,
        "",
      ),
    });
  }
  const items: (ResourceItem | ResourceTemplateItem)[] = [];
  const entries = new Map<string, CatalogueEntry>();
  const linked = new Map<string, CatalogueEntry>();
  for (const { listing, claims } of claimed) {
    for (const { uri, item } of claims) {
      const claimants = owners.get(uri) ?? [];
      let exposedName = uri;
      if (claimants.length > 1) {
        if (resolution !== "rewritten" && claimants[0] !== listing.backend) {
          dropped.add(`${listing.backend}\u0000${uri}`);
          continue;
        }
        if (resolution === "rewritten") {
          exposedName = formatResourceUri(
            listing.namespace === "" ? listing.backend : listing.namespace,
            uri,
          );
        }
      }
      if (entries.has(exposedName) || linked.has(exposedName)) continue;
      const entry = { backend: listing.backend, name: uri, exposedName };
      if (item === undefined) {
        linked.set(exposedName, entry);
        continue;
      }
      items.push({ ...item, [key]: exposedName } as ResourceItem | ResourceTemplateItem);
      entries.set(exposedName, entry);
    }
  }
  return { items, entries, linked, dropped };
}

function describeConflict(
  kind: CatalogueKind,
  name: string,
  winner: string,
  loser: string,
  resolution: string,
  fallback: string,
): string {
  const subject = `${kind} "${name}" is claimed by ${winner} and ${loser}`;
  switch (resolution) {
    case "prefixed":
      return `${subject}; ${loser}'s is exposed as "${fallback}".`;
    case "rewritten":
      return `${subject}; each is exposed as ${describeRewrittenUri(name)}.`;
    case "rejected":
      return `${subject}; conflictPolicy "error" refuses to start.`;
    default:
      return `${subject}; ${winner} keeps it (listed first), ${loser}'s is not exposed.`;
  }
}
