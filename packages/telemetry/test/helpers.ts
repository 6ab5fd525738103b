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
  type Recording = Pick<Telemetry, "record" | "recordDeferred" | "recordLazily">;
  const target = telemetry as Recording;
  return new Promise((resolve) => {
    const { record, recordDeferred, recordLazily } = target;
    const done = (event: TelemetryEvent) => {
      target.record = record;
      if (recordDeferred !== undefined) target.recordDeferred = recordDeferred;
      if (recordLazily !== undefined) target.recordLazily = recordLazily;
      resolve(event);
    };
    target.record = (input) => {
      const event = record(input);
      if (event.event_type === eventType) done(event);
      return event;
    };
    // Deferred and lazy events are stored unbuilt: the newest stored one is the one just recorded.
    const newest = (recordedType: string) => {
      if (recordedType !== eventType) return;
      const [event] = telemetry.query({ limit: 1 });
      if (event !== undefined) done(event);
    };
    if (recordDeferred !== undefined) {
      target.recordDeferred = (input) => {
        recordDeferred(input);
        newest(input.event_type);
      };
    }
    if (recordLazily !== undefined) {
      target.recordLazily = (type, describe, subject) => {
        recordLazily(type, describe, subject);
        newest(type);
      };
    }
  });
}
