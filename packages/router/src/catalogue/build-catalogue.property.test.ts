import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNameCodec, TOOL_NAME_PATTERN } from "../namespacing/qualified-name.js";
import { type BackendListing, buildCatalogue } from "./build-catalogue.js";
import type { ConflictPolicy } from "./conflict.js";

const namespaceText = fc.constantFrom("", "a", "b", "gh", "fs", "x.y", "long-namespace-name");
const toolName = fc.oneof(
  fc.constantFrom("search", "read", "write", "gateway_status", "a__search"),
  fc.string({ minLength: 1, maxLength: 90 }),
);

const listings = fc
  .array(
    fc.record({
      namespace: namespaceText,
      tools: fc.uniqueArray(toolName, { maxLength: 6 }),
      uris: fc.uniqueArray(fc.constantFrom("file:///a", "file:///b", "mem://x"), { maxLength: 3 }),
    }),
    { maxLength: 5 },
  )
  .map((specs) =>
    specs.map(
      (spec, index): BackendListing => ({
        backend: `backend${index}`,
        namespace: spec.namespace,
        tools: spec.tools.map((name) => ({ name })),
        resources: spec.uris.map((uri) => ({ uri, name: uri })),
      }),
    ),
  );

describe("buildCatalogue (properties)", () => {
  it("exposes unique, valid, short names that lead back to their backend and name", () => {
    fc.assert(
      fc.property(
        listings,
        fc.constantFrom<ConflictPolicy>("prefix", "priority", "error"),
        (input, conflictPolicy) => {
          const catalogue = buildCatalogue(input, {
            codec: createNameCodec(),
            conflictPolicy,
            reservedToolNames: ["gateway_status", "get_events"],
          });
          const names = catalogue.tools.map((tool) => tool.name);
          expect(new Set(names).size).toBe(names.length);
          expect(names).not.toContain("gateway_status");
          for (const name of names) {
            expect(name).toMatch(TOOL_NAME_PATTERN);
            expect(name.length).toBeLessThanOrEqual(64);
            const entry = catalogue.findTool(name);
            expect(entry).toBeDefined();
            const listing = input.find((candidate) => candidate.backend === entry?.backend);
            expect(listing?.tools?.some((tool) => tool.name === entry?.name)).toBe(true);
          }
          const uris = catalogue.resources.map((resource) => resource.uri);
          expect(new Set(uris).size).toBe(uris.length);
          for (const uri of uris) {
            const entry = catalogue.findResource(uri);
            expect(catalogue.exposeResourceUri(entry?.backend ?? "", entry?.name ?? "")).toBe(uri);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("exposes every tool under prefix unless its name is taken twice over or trespasses, and reports each drop", () => {
    fc.assert(
      fc.property(listings, (input) => {
        const catalogue = buildCatalogue(input, {
          codec: createNameCodec(),
          conflictPolicy: "prefix",
          reservedToolNames: ["gateway_status", "get_events"],
        });
        const offered = input.reduce((total, listing) => total + (listing.tools?.length ?? 0), 0);
        const dropped = catalogue.conflicts.filter(
          (conflict) =>
            conflict.kind === "tool" &&
            (conflict.resolution === "dropped" || conflict.resolution === "refused"),
        ).length;
        expect(catalogue.tools.length + dropped).toBe(offered);
      }),
      { numRuns: 300 },
    );
  });

  it("never exposes a backend's name inside another backend's namespace, under any policy", () => {
    fc.assert(
      fc.property(
        listings,
        fc.constantFrom<ConflictPolicy>("prefix", "priority", "error"),
        (input, conflictPolicy) => {
          const catalogue = buildCatalogue(input, { codec: createNameCodec(), conflictPolicy });
          for (const tool of catalogue.tools) {
            const owner = catalogue.findTool(tool.name)?.backend;
            const own = input.find((listing) => listing.backend === owner);
            const ownPrefix = own?.namespace === "" ? "" : `${own?.namespace}__`;
            for (const other of input) {
              if (other.backend === owner) continue;
              for (const prefix of [
                `${other.backend}__`,
                other.namespace === "" ? "" : `${other.namespace}__`,
              ]) {
                if (prefix.length <= ownPrefix.length) continue;
                expect(tool.name.startsWith(prefix)).toBe(false);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
