import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import type { TelemetryEvent } from "../src/event.js";
import { createTelemetry, type Telemetry } from "../src/telemetry.js";

/** Resolves with the next frame the transport delivers. */
export function nextFrame(transport: Transport): Promise<Frame> {
  return new Promise((resolve) => {
    const unsubscribe = transport.onFrame((frame) => {
      unsubscribe();
      resolve(frame);
    });
  });
}

/** A telemetry with a counting random source and a clock that advances 5 ms per reading. */
export function createTestTelemetry(): Telemetry {
  let next = 1;
  let elapsed = 0;
  return createTelemetry({
    source: "test",
    random: (bytes) => {
      for (let index = 0; index < bytes.length; index += 1) {
        bytes[index] = next & 0xff;
        next += 1;
      }
    },
    monotonicNow: () => {
      elapsed += 5;
      return elapsed;
    },
  });
}

export const incomingTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
export const incomingSpanId = "00f067aa0ba902b7";
export const incomingTraceparent = `00-${incomingTraceId}-${incomingSpanId}-01`;

/** Resolves with the first event of `eventType` that `telemetry` records from now on. */
export function whenRecorded(telemetry: Telemetry, eventType: string): Promise<TelemetryEvent> {
  return new Promise((resolve) => {
    const original = telemetry.record;
    (telemetry as { record: Telemetry["record"] }).record = (input) => {
      const event = original(input);
      if (event.event_type === eventType) {
        (telemetry as { record: Telemetry["record"] }).record = original;
        resolve(event);
      }
      return event;
    };
  });
}
