import { SUPPORTED_PROTOCOL_VERSIONS as projectRevisions } from "@patchbay/mcp-types";
import { describe, expect, it } from "vitest";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./constants.js";

describe("constants", () => {
  it("accepts exactly the revisions of the project's one list in mcp-types", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(projectRevisions);
  });
});
