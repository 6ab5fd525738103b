import { expect } from "vitest";
import { nextEvent } from "../contract-helpers.js";
import { allOf, capability, type ServerContractContext } from "../server-contract-context.js";

/** list_changed and resources/updated notifications. */
export function defineNotificationCases(context: ServerContractContext): void {
  const unsolicited = capability(
    context.capabilities.unsolicitedNotifications,
    "unsolicitedNotifications",
  );
  const concurrent = capability(context.capabilities.concurrentSessions, "concurrentSessions");

  context.test(
    "a tool added or removed sends tools/list_changed to every session",
    allOf(unsolicited, concurrent),
    async () => {
      const actor = await context.connectClient();
      const observer = await context.connectClient();
      const names = async () => (await observer.listAllTools()).map((tool) => tool.name);
      const wasPresent = (await names()).includes("extra_tool");
      const changed = nextEvent(
        (listener) => observer.on("notifications/tools/list_changed", listener),
        "observer: no tools/list_changed after the actor toggled a tool",
        context.waitTimeoutMs,
      );
      const actorChanged = nextEvent(
        (listener) => actor.on("notifications/tools/list_changed", listener),
        "actor: no tools/list_changed after it toggled a tool",
        context.waitTimeoutMs,
      );
      await actor.callTool({ name: "toggle_extra_tool" });
      await Promise.all([changed, actorChanged]);
      expect((await names()).includes("extra_tool")).toBe(!wasPresent);
      const changedBack = nextEvent(
        (listener) => observer.on("notifications/tools/list_changed", listener),
        "observer: no tools/list_changed after the actor toggled the tool back",
        context.waitTimeoutMs,
      );
      await actor.callTool({ name: "toggle_extra_tool" });
      await changedBack;
      expect((await names()).includes("extra_tool")).toBe(wasPresent);
    },
  );

  context.test(
    "resources/updated reaches subscribers only, until they unsubscribe",
    allOf(unsolicited, concurrent),
    async () => {
      const subscriber = await context.connectClient();
      const bystander = await context.connectClient();
      const bystanderSeen: string[] = [];
      bystander.on("notifications/resources/updated", (params) => bystanderSeen.push(params.uri));
      await subscriber.subscribeResource("test://watched-resource");
      const updated = nextEvent<{ uri: string }>(
        (listener) => subscriber.on("notifications/resources/updated", listener),
        "subscriber: no resources/updated after the resource changed",
        context.waitTimeoutMs,
      );
      await bystander.callTool({ name: "update_watched_resource" });
      expect((await updated).uri).toBe("test://watched-resource");
      await bystander.ping();
      expect(bystanderSeen).toEqual([]);

      await subscriber.unsubscribeResource("test://watched-resource");
      const afterUnsubscribe: string[] = [];
      subscriber.on("notifications/resources/updated", (params) =>
        afterUnsubscribe.push(params.uri),
      );
      await subscriber.callTool({ name: "update_watched_resource" });
      expect(afterUnsubscribe).toEqual([]);
    },
  );
}
