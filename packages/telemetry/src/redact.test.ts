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

  it("leaves the prose 'bearer token' alone but masks a credential that starts with 'token'", () => {
    expect(redact("missing bearer token")).toBe("missing bearer token");
    expect(redact("Bearer tokens are checked")).toBe("Bearer tokens are checked");
    expect(redact("Bearer token.abc-123")).toBe(`Bearer ${REDACTED}`);
    expect(redact("Bearer tokenXYZ")).toBe(`Bearer ${REDACTED}`);
    expect(redact("Bearer token=")).toBe(`Bearer ${REDACTED}`);
    expect(redact("Authorization: Bearer token")).toBe(`Authorization: Bearer ${REDACTED}`);
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

describe("redact: credentials in URLs and header text", () => {
  it("masks the user info of any URL inside text", () => {
    expect(redact("connect ECONNREFUSED https://alice:hunter2-pw@api.example.com/mcp")).toBe(
      `connect ECONNREFUSED https://${REDACTED}@api.example.com/mcp`,
    );
    expect(redact("see https://example.com/a@b")).toBe("see https://example.com/a@b");
  });

  it("masks query parameters whose name sounds secret, and keeps the others", () => {
    expect(redact("GET https://h.example/mcp?api_key=k-123456&region=eu&access_token=t0k3n")).toBe(
      `GET https://h.example/mcp?api_key=${REDACTED}&region=eu&access_token=${REDACTED}`,
    );
    expect(redact({ url: "http://h/x?sig=abcd&page=2" })).toEqual({
      url: `http://h/x?sig=${REDACTED}&page=2`,
    });
  });

  it("masks Authorization-like headers written as text, whatever the scheme", () => {
    expect(redact('--header "Authorization: token ghp_abcdef123"')).toBe(
      `--header "Authorization: token ${REDACTED}"`,
    );
    expect(redact("x-api-key=abc123456 next")).toBe(`x-api-key=${REDACTED} next`);
    expect(redact("Authorization: Bearer abc.def")).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it("learns secret values after creation, longest first", () => {
    const learning = createRedactor();
    expect(learning("value s3cr3t-one")).toBe("value s3cr3t-one");
    learning.addSecretValues(["s3cr3t-one", "s3cr3t", "abc"]);
    expect(learning("value s3cr3t-one and s3cr3t and abc")).toBe(
      `value ${REDACTED} and ${REDACTED} and abc`,
    );
  });

  it("masks a string seen before its secret was learnt (remembered results are forgotten)", () => {
    const learning = createRedactor();
    expect(learning("token s3cr3t-two")).toBe("token s3cr3t-two");
    expect(learning({ text: "token s3cr3t-two" })).toEqual({ text: "token s3cr3t-two" });
    learning.addSecretValues(["s3cr3t-two"]);
    expect(learning("token s3cr3t-two")).toBe(`token ${REDACTED}`);
    expect(learning({ text: "token s3cr3t-two" })).toEqual({ text: `token ${REDACTED}` });
  });

  it("finishes quickly on long hostile text for every pattern (no backtracking blow-up)", () => {
    const long = `${"://".repeat(20_000)}${"?aaaa".repeat(20_000)}${"Authorization:".repeat(5_000)}`;
    const output = redact(long);
    expect(output.length).toBeGreaterThan(0);
  });
});
