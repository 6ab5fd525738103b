import { createCallFeed } from "@patchbay/dashboard";
import {
  createTelemetry,
  isLazyEvent,
  type LazyEvent,
  type TelemetryEvent,
  trackRequest,
} from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import { callFeedSink } from "./proxy-telemetry.js";

describe("callFeedSink", () => {
  it("declares by type that the call feed reads only the events that close a request", () => {
    const sink = callFeedSink(createCallFeed().sink);
    for (const type of ["tool.called", "request.completed", "request.timeout", "request.cancelled"])
      expect(sink.acceptsType?.(type)).toBe(true);
    for (const type of ["request.received", "request.sent", "backend.started", "session.started"])
      expect(sink.acceptsType?.(type)).toBe(false);
  });

  it("still feeds every client call to the dashboard, and is handed no other event", async () => {
    const feed = createCallFeed();
    const handed: string[] = [];
    const unbuilt: boolean[] = [];
    const sink = callFeedSink(feed.sink);
    const typeOf = (event: TelemetryEvent | LazyEvent) =>
      isLazyEvent(event) ? event.eventType : event.event_type;
    const telemetry = createTelemetry({
      sinks: [
        {
          ...sink,
          write: async (events) => {
            handed.push(...events.map(typeOf));
            await sink.write(events);
          },
          // The feed takes lazily recorded events unbuilt (it builds those a page reads).
          writeUnbuilt: async (events) => {
            handed.push(...events.map(typeOf));
            unbuilt.push(...events.map((event) => isLazyEvent(event) && event.event === undefined));
            await sink.writeUnbuilt?.(events);
          },
        },
      ],
    });
    telemetry.record({ event_type: "session.started", data: { session: "s" } });
    trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "sample__echo" },
      id: 1,
    }).end({ outcome: "success" });
    await telemetry.flush();
    expect(handed).toEqual(["tool.called"]);
    expect(unbuilt).toEqual([true]);
    expect(feed.recent()).toMatchObject([{ method: "tools/call", tool: "sample__echo" }]);
  });
});
