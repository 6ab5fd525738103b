import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseGatewayConfig } from "@patchbay/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryValueStore } from "../test-support/memory-value-store.js";
import { createPrincipalValues, type PrincipalValues } from "./principal-values.js";

const { config } = parseGatewayConfig({
  mcpServers: {
    // A command backend: its slots are environment variables, which may hold a line break.
    jira: {
      command: "jira-mcp",
      isolation: "per-principal",
      credentials: { env: ["JIRA_TOKEN", "JIRA_USER"], setByUser: true },
    },
    ops: {
      url: "http://127.0.0.1:9/mcp",
      isolation: "per-principal",
      credentials: { headers: { Authorization: "Bearer {{token}}" } },
    },
    sso: { url: "http://127.0.0.1:9/mcp", isolation: "per-principal", oauth: {} },
  },
});

describe("createPrincipalValues' links and form", { timeout: 5_000 }, () => {
  let server: Server;
  let origin: string;
  const store = createMemoryValueStore();
  const saved: string[] = [];
  const forms: PrincipalValues[] = [];

  function formWith(linkTtlMs?: number, on = store): PrincipalValues {
    const form = createPrincipalValues({
      origin: () => origin,
      backends: () => config.backends,
      store: on,
      onSaved: (principal, backend) => saved.push(`${principal}/${backend}`),
      ...(linkTtlMs === undefined ? {} : { linkTtlMs }),
    });
    forms.push(form);
    return form;
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      void (forms.at(-1) as PrincipalValues).handleRequest(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const form of forms) form.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (link: string, fields: Record<string, string>) =>
    fetch(new URL(new URL(link).pathname, origin), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ link: new URL(link).searchParams.get("link") ?? "", ...fields }),
    });

  it("serves /connect/<backend> only for backends whose principals set their own values", () => {
    const form = formWith();
    expect(form.handles("/connect/jira")).toBe(true);
    expect(form.handles("/connect/ops")).toBe(false);
    expect(form.handles("/connect/sso")).toBe(false);
    expect(form.handles("/connect/%E0%A4%A")).toBe(false);
    const link = new URL(form.valuesUrl("alice", "jira"));
    expect(link.origin).toBe(origin);
    expect(link.pathname).toBe("/connect/jira");
    // 32 random bytes, base64url.
    expect(link.searchParams.get("link")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(form.valuesUrl("alice", "jira")).not.toBe(link.href);
  });

  it("stores an env slot's value with a line break, refuses a NUL, and spends the principal's other links", async () => {
    const form = formWith();
    const [first, second] = [form.valuesUrl("alice", "jira"), form.valuesUrl("alice", "jira")];
    const page = await (await fetch(first as string)).text();
    expect(page).toContain('name="slot:JIRA_TOKEN"');
    expect(page).toContain('name="slot:JIRA_USER"');
    const nul = await post(first as string, {
      "slot:JIRA_TOKEN": "a\u0000b",
      "slot:JIRA_USER": "a",
    });
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain("The value for JIRA_TOKEN contains a NUL.");
    const values = { "slot:JIRA_TOKEN": "line one\nline two", "slot:JIRA_USER": "alice" };
    expect((await post(first as string, values)).status).toBe(200);
    expect(store.valuesFor("alice", "jira")).toEqual({
      JIRA_TOKEN: "line one\nline two",
      JIRA_USER: "alice",
    });
    expect(saved).toEqual(["alice/jira"]);
    expect((await fetch(second as string)).status).toBe(400);
  });

  it("says Saved only once the store wrote; a failed write keeps the link, a second send stores once", async () => {
    const writes: string[] = [];
    let failing = true;
    let release: () => void = () => {};
    let started: () => void = () => {};
    const writing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = {
      valuesFor: () => undefined,
      // As the replicas' store in Redis: the write completes later, or fails.
      replace: (principal: string, backend: string) => {
        if (failing) return Promise.reject(new Error("Redis is unreachable"));
        writes.push(`${principal}/${backend}`);
        started();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    };
    const form = formWith(undefined, slow);
    const link = form.valuesUrl("erin", "jira");
    const values = { "slot:JIRA_TOKEN": "t", "slot:JIRA_USER": "erin" };
    const refused = await post(link, values);
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toContain("Redis");
    failing = false;
    const first = post(link, values);
    await writing;
    // Sent again while the first is being written: the link is spent already.
    const second = await post(link, values);
    expect(second.status).toBe(400);
    expect(writes).toEqual(["erin/jira"]);
    release();
    expect((await first).status).toBe(200);
  });

  it("tells whoever was sent one of the principal's links once its values are stored", async () => {
    const form = formWith();
    const told: string[] = [];
    const first = form.valuesUrl("carol", "jira", () => told.push("first"));
    form.valuesUrl("carol", "jira", () => told.push("second"));
    form.valuesUrl("dave", "jira", () => told.push("dave's"));
    const values = { "slot:JIRA_TOKEN": "t", "slot:JIRA_USER": "carol" };
    expect((await post(first, values)).status).toBe(200);
    expect(told).toEqual(["first", "second"]);
  });

  it("answers 400 to an expired link, 405 to another method", async () => {
    const form = formWith(0);
    const link = form.valuesUrl("bob", "jira");
    expect((await fetch(link)).status).toBe(400);
    expect((await post(link, { "slot:JIRA_TOKEN": "t", "slot:JIRA_USER": "u" })).status).toBe(400);
    expect(store.valuesFor("bob", "jira")).toBeUndefined();
    const put = await fetch(link, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
  });
});
