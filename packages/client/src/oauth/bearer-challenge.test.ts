import { describe, expect, it } from "vitest";
import { parseBearerChallenge } from "./bearer-challenge.js";

describe("parseBearerChallenge", () => {
  it("reads error, scope and resource_metadata, quoted or not", () => {
    expect(
      parseBearerChallenge(
        'Bearer error="insufficient_scope", scope="mcp:all mcp:notes", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: "insufficient_scope",
      scope: "mcp:all mcp:notes",
      resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    });
    expect(parseBearerChallenge("Bearer error=invalid_token")).toEqual({ error: "invalid_token" });
  });

  it("keeps to the Bearer challenge when the header holds several schemes", () => {
    expect(
      parseBearerChallenge('Basic realm="x", Bearer scope="a", DPoP algs="ES256", error="no"'),
    ).toEqual({ scope: "a" });
  });

  it("unescapes quoted values and accepts a bare Bearer", () => {
    expect(parseBearerChallenge('Bearer scope="a \\"b\\""')).toEqual({ scope: 'a "b"' });
    expect(parseBearerChallenge("Bearer")).toEqual({});
  });

  it("is undefined without a Bearer challenge", () => {
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });
});
