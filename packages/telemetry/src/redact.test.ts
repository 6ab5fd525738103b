import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, redact } from "./redact.js";

describe("redact", () => {
  it("masks a bearer token inside any string", () => {
    expect(redact("calling with Bearer abc.DEF-123_~+/xyz== now")).toBe(
      `calling with Bearer ${REDACTED} now`,
    );
    expect(redact({ line: "authorization: bearer s3cr3t-token" })).toEqual({
      line: `authorization: bearer ${REDACTED}`,
    });
  });

  it("masks Basic credentials but leaves prose alone", () => {
    expect(redact("Basic dXNlcjpwYXNzd29yZA==")).toBe(`Basic ${REDACTED}`);
    expect(redact("Basic setup done")).toBe("Basic setup done");
  });

  it("masks Authorization and Proxy-Authorization headers whatever their case", () => {
    expect(
      redact({
        headers: { Authorization: "Token xyz", "proxy-authorization": "x", accept: "*/*" },
      }),
    ).toEqual({
      headers: { Authorization: REDACTED, "proxy-authorization": REDACTED, accept: "*/*" },
    });
  });

  it("masks Cookie and Set-Cookie headers, also as [name, value] pairs and arrays", () => {
    expect(
      redact({
        cookie: "session=abc",
        "Set-Cookie": ["a=1", "b=2"],
        entries: [
          ["Cookie", "session=abc"],
          ["Content-Type", "text/plain"],
        ],
      }),
    ).toEqual({
      cookie: REDACTED,
      "Set-Cookie": REDACTED,
      entries: [
        ["Cookie", REDACTED],
        ["Content-Type", "text/plain"],
      ],
    });
  });

  it("masks configured secret keys, ignoring case, dashes and underscores", () => {
    const custom = createRedactor({ secretKeys: ["githubPat"] });
    expect(custom({ GITHUB_PAT: "ghp_1", github_pat: "ghp_2", other: "visible" })).toEqual({
      GITHUB_PAT: REDACTED,
      github_pat: REDACTED,
      other: "visible",
    });
    expect(redact({ GITHUB_PAT: "ghp_1" })).toEqual({ GITHUB_PAT: "ghp_1" });
  });

  it("masks default secret keys such as password, api_key and client_secret", () => {
    expect(redact({ password: "p", api_key: "k", clientSecret: "c", name: "n" })).toEqual({
      password: REDACTED,
      api_key: REDACTED,
      clientSecret: REDACTED,
      name: "n",
    });
  });

  it("masks every value of an env block but keeps its names", () => {
    expect(redact({ command: "node", env: { GITHUB_TOKEN: "ghp_x", HOME: "/root" } })).toEqual({
      command: "node",
      env: { GITHUB_TOKEN: REDACTED, HOME: REDACTED },
    });
  });

  it("masks configured secret values (such as env values) wherever they appear in text", () => {
    const custom = createRedactor({ secretValues: ["sk-live-12345", "ab"] });
    expect(
      custom({ message: "spawn failed: API_KEY=sk-live-12345 rejected", short: "ab" }),
    ).toEqual({
      message: `spawn failed: API_KEY=${REDACTED} rejected`,
      // Values under 4 characters are not masked: they would garble unrelated text.
      short: "ab",
    });
  });

  it("masks a configured value that contains regular-expression characters literally", () => {
    const custom = createRedactor({ secretValues: ["a+b(c)*"] });
    expect(custom("x a+b(c)* y aab")).toBe(`x ${REDACTED} y aab`);
  });

  it("does not mutate its input and survives cycles", () => {
    const input: Record<string, unknown> = { authorization: "Bearer x", nested: { ok: 1 } };
    input.self = input;
    const output = redact(input);
    expect(input.authorization).toBe("Bearer x");
    expect(output).toMatchObject({
      authorization: REDACTED,
      nested: { ok: 1 },
      self: "[CIRCULAR]",
    });
  });

  it("turns errors into plain objects with a redacted message", () => {
    expect(redact({ error: new Error("Bearer abcdef failed") })).toEqual({
      error: { name: "Error", message: `Bearer ${REDACTED} failed` },
    });
  });

  it("leaves numbers, booleans and null as they are", () => {
    expect(redact({ a: 1, b: true, c: null })).toEqual({ a: 1, b: true, c: null });
  });

  it("keeps a JSON-parsed __proto__ key as data instead of setting the copy's prototype", () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": true}, "env": {"__proto__": "x"}}',
    ) as object;
    const output = redact(input);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect((output as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(output)).toBe(
      '{"__proto__":{"polluted":true},"env":{"__proto__":"[REDACTED]"}}',
    );
  });
});
