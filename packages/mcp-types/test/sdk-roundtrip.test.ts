import { isInputRequiredResult } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { validateMessage } from "../src/validation/validate-message.js";
import type { ProtocolVersion } from "../src/versions.js";
import { type Fixture, legacyFixtures, modernFixtures } from "./fixtures.js";
import type { Capture } from "./helpers/captured.js";
import { captureSdkV1Exchange } from "./helpers/sdk-v1-exchange.js";
import { captureSdkV2ModernExchange } from "./helpers/sdk-v2-exchange.js";
import { sdkV1Schemas, sdkV2Schemas, type TheirMethodSchemas } from "./helpers/their-schemas.js";

interface Outcome {
  readonly checked: number;
  readonly failures: string[];
}

/**
 * Parses a message with our schemas, then hands what we produced to the SDK's schema for the same
 * method, and expects the SDK to accept it unchanged.
 */
function roundTrip(
  revision: ProtocolVersion,
  message: unknown,
  requestMethod: string | undefined,
  theirs: Record<string, TheirMethodSchemas>,
  outcome: { checked: number; failures: string[] },
): void {
  const ours = validateMessage(
    revision,
    message,
    requestMethod === undefined ? {} : { requestMethod },
  );
  if (!ours.success) {
    outcome.failures.push(`ours refused ${JSON.stringify(message)}: ${ours.message}`);
    return;
  }
  const data = ours.data as Record<string, unknown>;
  const method = typeof data.method === "string" ? data.method : requestMethod;
  const schemas = method === undefined ? undefined : theirs[method];
  if (schemas === undefined || "error" in data) return;
  let value: unknown;
  let schema: TheirMethodSchemas[keyof TheirMethodSchemas];
  if ("result" in data) {
    if (isInputRequiredResult(data.result)) {
      outcome.checked += 1;
      return;
    }
    value = data.result;
    schema = schemas.result;
  } else {
    value = { method: data.method, ...(data.params === undefined ? {} : { params: data.params }) };
    schema = "id" in data ? schemas.request : schemas.notification;
  }
  if (schema === undefined) return;
  const parsed = schema.safeParse(value);
  outcome.checked += 1;
  if (!parsed.success) {
    outcome.failures.push(
      `theirs refused ${method}: ${JSON.stringify(value)}: ${String(parsed.error)}`,
    );
  } else {
    for (const difference of lostOrChanged(value, parsed.data, [])) {
      if (!ignoredPaths.has(difference))
        outcome.failures.push(`theirs dropped or changed ${method} ${difference}`);
    }
  }
}

/**
 * The paths of `ours` that `theirs` lost or changed. The SDK may add defaults (SDK 1.x turns an
 * empty `elicitation` capability into `{ form: {} }`); it must not drop or alter what we kept.
 */
function lostOrChanged(ours: unknown, theirs: unknown, path: readonly string[]): string[] {
  if (typeof ours !== "object" || ours === null) {
    return Object.is(ours, theirs) ? [] : [path.join(".")];
  }
  if (typeof theirs !== "object" || theirs === null) return [path.join(".")];
  const differences: string[] = [];
  for (const [key, value] of Object.entries(ours)) {
    if (value === undefined) continue;
    differences.push(
      ...lostOrChanged(value, (theirs as Record<string, unknown>)[key], [...path, key]),
    );
  }
  return differences;
}

/**
 * SDK 2.4's exported request schemas strip the MRTR retry fields (its protocol layer lifts them
 * out of params before validating); our schemas keep them, which is what a gateway needs.
 */
const ignoredPaths = new Set(["params.inputResponses", "params.requestState"]);

function fixturesOf(fixtures: readonly Fixture[], revision: ProtocolVersion) {
  return fixtures.filter(
    (fixture) => fixture.revisions.includes(revision) && !Array.isArray(fixture.message),
  );
}

function captured(
  capture: Capture,
  revision: ProtocolVersion,
  theirs: Record<string, TheirMethodSchemas>,
) {
  const outcome: Outcome = { checked: 0, failures: [] };
  for (const { direction, message } of capture.messages) {
    const id = message.id as string | number | undefined;
    const requestMethod =
      "method" in message || id === undefined ? undefined : capture.requestMethodOf(direction, id);
    roundTrip(revision, message, requestMethod, theirs, outcome);
  }
  return outcome;
}

describe("what our 2025-11-25 schemas accept, SDK 1.32.2's schemas accept unchanged", () => {
  it("for the typical messages", () => {
    const outcome: Outcome = { checked: 0, failures: [] };
    for (const fixture of fixturesOf(legacyFixtures, "2025-11-25")) {
      roundTrip("2025-11-25", fixture.message, fixture.requestMethod, sdkV1Schemas, outcome);
    }
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBeGreaterThan(20);
  });

  let capture: Capture;
  beforeAll(async () => {
    capture = await captureSdkV1Exchange();
  });

  it("for every message an SDK 1.x client and server exchanged", () => {
    const outcome = captured(capture, "2025-11-25", sdkV1Schemas);
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBeGreaterThan(30);
  });
});

describe("what our 2026-07-28 schemas accept, SDK 2.4.0's schemas accept unchanged", () => {
  it("for the typical messages", () => {
    const outcome: Outcome = { checked: 0, failures: [] };
    for (const fixture of fixturesOf(modernFixtures, "2026-07-28")) {
      roundTrip("2026-07-28", fixture.message, fixture.requestMethod, sdkV2Schemas, outcome);
    }
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBeGreaterThan(8);
  });

  let capture: Capture;
  beforeAll(async () => {
    capture = await captureSdkV2ModernExchange();
  });

  it("for every message an SDK 2.x client and server exchanged", () => {
    const outcome = captured(capture, "2026-07-28", sdkV2Schemas);
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBeGreaterThan(15);
  });
});
