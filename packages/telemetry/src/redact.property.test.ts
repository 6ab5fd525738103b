import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor } from "./redact.js";

describe("redaction properties", () => {
  it("never lets a configured secret value through, however it is embedded", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{4,24}$/);
    fc.assert(
      fc.property(secret, fc.string(), fc.string(), (value, before, after) => {
        const redact = createRedactor({ secretValues: [value] });
        const output = redact({ nested: [{ text: `${before}${value}${after}` }], [value]: value });
        expect(JSON.stringify(output).includes(`:"${value}"`)).toBe(false);
        expect(JSON.stringify(output.nested)).not.toContain(value);
      }),
    );
  });

  it("never lets a bearer token through in any surrounding text", () => {
    // The words "token" and "tokens" alone are prose ("missing bearer token"), left as they are.
    const token = fc
      .stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}=*$/)
      .filter((value) => !/^tokens?$/i.test(value));
    fc.assert(
      fc.property(token, fc.string(), (value, prefix) => {
        const output = createRedactor()(`${prefix} Bearer ${value}`);
        expect(output.endsWith(`Bearer ${value}`) && !value.startsWith("[REDACTED]")).toBe(false);
      }),
    );
  });

  it("leaves values without secrets equal to the input", () => {
    const safe = fc
      .jsonValue()
      .filter(
        (value) =>
          !/bearer|basic|env|auth|cookie|token|secret|pass|key/i.test(JSON.stringify(value)),
      );
    fc.assert(
      fc.property(safe, (value) => {
        expect(createRedactor()(value)).toEqual(value);
      }),
    );
  });
});
