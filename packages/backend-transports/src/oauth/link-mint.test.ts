import { describe, expect, it } from "vitest";
import { createMemoryConnectFlowStore } from "./connect-flow-store.js";
import { createLinkMint, linkTag } from "./link-mint.js";

const ORIGIN = "https://mcp.example.com";
const idOf = (url: string) => new URL(url).searchParams.get("link") as string;

describe("createLinkMint", () => {
  it("mints a new unguessable link per call on the origin's /connect/<backend>, saved in the store", async () => {
    const flows = createMemoryConnectFlowStore();
    const links = createLinkMint(flows, 60_000);
    const first = links.mint({ origin: ORIGIN, principal: "alice", backend: "git hub" });
    const second = links.mint({ origin: ORIGIN, principal: "alice", backend: "git hub" });
    expect(first).toMatch(
      /^https:\/\/mcp\.example\.com\/connect\/git%20hub\?link=[A-Za-z0-9_-]{43}$/,
    );
    expect(idOf(second)).not.toBe(idOf(first));
    await links.saved();
    expect(await flows.peekLink(idOf(first))).toEqual({ principal: "alice", backend: "git hub" });
    flows.close();
  });

  it("calls a link's onUsed once its tag is announced: the link's own, or one links share", async () => {
    const flows = createMemoryConnectFlowStore();
    const links = createLinkMint(flows, 60_000);
    const told: string[] = [];
    const own = links.mint({
      origin: ORIGIN,
      principal: "alice",
      backend: "up",
      onUsed: () => told.push("own"),
    });
    for (const name of ["first", "second"]) {
      links.mint({
        origin: ORIGIN,
        principal: "bob",
        backend: "up",
        tag: "bob/up",
        onUsed: () => told.push(name),
      });
    }
    await flows.connected("bob/up");
    expect(told).toEqual(["first", "second"]);
    await flows.connected(linkTag(idOf(own)));
    await flows.connected(linkTag(idOf(own)));
    await flows.connected("bob/up");
    expect(told).toEqual(["first", "second", "own"]);
    flows.close();
  });

  it("forgets the waiting calls once closed", async () => {
    const flows = createMemoryConnectFlowStore();
    const links = createLinkMint(flows, 60_000);
    const told: string[] = [];
    links.mint({
      origin: ORIGIN,
      principal: "alice",
      backend: "up",
      tag: "t",
      onUsed: () => told.push("t"),
    });
    links.close();
    await flows.connected("t");
    expect(told).toEqual([]);
    flows.close();
  });
});
