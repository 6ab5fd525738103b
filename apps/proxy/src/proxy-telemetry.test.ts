import { createCallFeed } from "@patchbay/dashboard";
import { createTelemetry, type TelemetryEvent, trackRequest } from "@patchbay/telemetry";
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
    const handed: TelemetryEvent[] = [];
    const sink = callFeedSink(feed.sink);
    const telemetry = createTelemetry({
      sinks: [
        {
          ...sink,
          write: async (events) => {
            handed.push(...events);
            await sink.write(events);
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
    expect(handed.map((event) => event.event_type)).toEqual(["tool.called"]);
    expect(feed.recent()).toMatchObject([{ method: "tools/call", tool: "sample__echo" }]);
  });
});
