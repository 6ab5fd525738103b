import { describe, expect, it } from "vitest";
import { type NotificationAudience, routeBackendNotification } from "./route-notification.js";

const audience = (overrides: Partial<NotificationAudience> = {}): NotificationAudience => ({
  logLevel: undefined,
  subscriptions: new Set(),
  exposeResourceUri: (uri) => uri,
  ...overrides,
});

const notification = (method: string, params: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  method,
  params,
});

describe("routeBackendNotification", () => {
  it("tags a log message with the backend, keeping the backend's logger after a slash", () => {
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/message", { level: "info", data: 1 }),
        audience(),
      ),
    ).toEqual({
      method: "notifications/message",
      params: { level: "info", data: 1, logger: "gh" },
    });
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/message", { level: "info", data: 1, logger: "http" }),
        audience(),
      )?.params.logger,
    ).toBe("gh/http");
  });

  it("drops a log message below the client's level", () => {
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/message", { level: "info", data: 1 }),
        audience({ logLevel: "warning" }),
      ),
    ).toBeUndefined();
  });

  it("delivers a log message at or above the client's level", () => {
    for (const level of ["warning", "emergency"]) {
      expect(
        routeBackendNotification(
          "gh",
          notification("notifications/message", { level, data: 1 }),
          audience({ logLevel: "warning" }),
        )?.params.level,
      ).toBe(level);
    }
  });

  it("delivers every log message to a client that set no level", () => {
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/message", { level: "debug", data: 1 }),
        audience(),
      ),
    ).toBeDefined();
  });

  it("delivers a log message whose level it does not know, whatever the client's level", () => {
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/message", { level: "loud", data: 1 }),
        audience({ logLevel: "error" }),
      )?.params.level,
    ).toBe("loud");
  });

  it("delivers resources/updated with the exposed URI to subscribers only", () => {
    const rewritten = audience({
      subscriptions: new Set(["patchbay://gh/file:///a"]),
      exposeResourceUri: (uri) => `patchbay://gh/${uri}`,
    });
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/resources/updated", { uri: "file:///a" }),
        rewritten,
      ),
    ).toEqual({
      method: "notifications/resources/updated",
      params: { uri: "patchbay://gh/file:///a" },
    });
    expect(
      routeBackendNotification(
        "gh",
        notification("notifications/resources/updated", { uri: "file:///a" }),
        audience(),
      ),
    ).toBeUndefined();
  });

  it("passes any other notification through", () => {
    expect(
      routeBackendNotification("gh", notification("notifications/custom", { x: 1 }), audience()),
    ).toEqual({ method: "notifications/custom", params: { x: 1 } });
  });
});
