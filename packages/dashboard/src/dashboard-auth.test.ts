import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createDashboardAuth, DASHBOARD_COOKIE } from "./dashboard-auth.js";
import {
  createMemoryLoginStore,
  type DashboardLoginStore,
  type StoredLogin,
} from "./login-store.js";

const tokens = [
  { name: "admin", token: "admin-token" },
  { name: "team", token: "team-token", profiles: ["team"] },
];

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}
const withCookie = (id: string) => request({ cookie: `other=1; ${DASHBOARD_COOKIE}=${id}` });

/** A shared store that records what it was given (as Redis would hold it). */
function recordingStore() {
  const inner = createMemoryLoginStore();
  const added: [string, StoredLogin][] = [];
  const store: DashboardLoginStore = {
    add(key, login, limits) {
      added.push([key, login]);
      return inner.add(key, login, limits);
    },
    get: (key, now) => inner.get(key, now),
    remove: (key) => inner.remove(key),
  };
  return { store, added };
}

describe("createDashboardAuth", () => {
  it("logs in only a token allowed every backend", async () => {
    const auth = createDashboardAuth({ tokens });
    expect(await auth.login("team-token")).toBe(undefined);
    expect(await auth.login("wrong")).toBe(undefined);
    const id = (await auth.login("admin-token")) as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await auth.identify(withCookie(id)))?.name).toBe("admin");
    expect(await auth.identify(withCookie(`${id}x`))).toBe(undefined);
  });

  it("accepts a bearer header, and refuses one for a profile-limited token", async () => {
    const auth = createDashboardAuth({ tokens });
    const admin = await auth.identify(request({ authorization: "Bearer admin-token" }));
    expect(admin?.name).toBe("admin");
    expect(await auth.identify(request({ authorization: "Bearer team-token" }))).toBe(undefined);
  });

  it("ends a login after its time to live and on logout", async () => {
    let now = 0;
    const auth = createDashboardAuth({ tokens, loginTtlMs: 1_000, now: () => now });
    const first = (await auth.login("admin-token")) as string;
    const second = (await auth.login("admin-token")) as string;
    await auth.logout(withCookie(second));
    expect(await auth.identify(withCookie(second))).toBe(undefined);
    now = 999;
    expect((await auth.identify(withCookie(first)))?.name).toBe("admin");
    now = 1_000;
    expect(await auth.identify(withCookie(first))).toBe(undefined);
  });

  it("keeps at most maxLogins, dropping the oldest", async () => {
    const auth = createDashboardAuth({ tokens, maxLogins: 2 });
    const [a, b, c] = [
      await auth.login("admin-token"),
      await auth.login("admin-token"),
      await auth.login("admin-token"),
    ] as string[];
    expect(await auth.identify(withCookie(a as string))).toBe(undefined);
    expect((await auth.identify(withCookie(b as string)))?.name).toBe("admin");
    expect((await auth.identify(withCookie(c as string)))?.name).toBe("admin");
  });

  it("marks a login an operator's when its token has operator: true, as configured now", async () => {
    const ops = { name: "ops", token: "ops-token", operator: true };
    const auth = createDashboardAuth({ tokens: [...tokens, ops] });
    const admin = (await auth.login("admin-token")) as string;
    const login = (await auth.login("ops-token")) as string;
    expect((await auth.identify(withCookie(login)))?.operator).toBe(true);
    expect((await auth.identify(withCookie(admin)))?.operator).toBe(undefined);
    const bearer = await auth.identify(request({ authorization: "Bearer ops-token" }));
    expect(bearer?.operator).toBe(true);
    // A reload that takes the flag away takes it from the login too.
    auth.setTokens([...tokens, { ...ops, operator: false }]);
    expect((await auth.identify(withCookie(login)))?.operator).toBe(undefined);
  });

  it("lets everyone in when the proxy has no tokens, as the API does", async () => {
    const auth = createDashboardAuth({ tokens: undefined });
    expect(auth.enabled).toBe(false);
    expect((await auth.identify(request({})))?.name).toBe("anonymous");
    expect(await auth.login("anything")).toBe(undefined);
  });
});

describe("createDashboardAuth on a shared login store (replicas)", () => {
  it("makes a login valid on every auth sharing the store, and a logout on one ends it on all", async () => {
    const { store, added } = recordingStore();
    const replicaA = createDashboardAuth({ tokens, store });
    const replicaB = createDashboardAuth({ tokens, store });
    const id = (await replicaA.login("admin-token")) as string;
    expect((await replicaB.identify(withCookie(id)))?.name).toBe("admin");
    await replicaB.logout(withCookie(id));
    expect(await replicaA.identify(withCookie(id))).toBe(undefined);
    expect(await replicaB.identify(withCookie(id))).toBe(undefined);
    // The store got the SHA-256 of the id and the token's name: neither the id nor the token.
    expect(added).toHaveLength(1);
    const [key, login] = added[0] as [string, StoredLogin];
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(added)).not.toContain(id);
    expect(JSON.stringify(added)).not.toContain("admin-token");
    expect(Object.keys(login).sort()).toEqual(["expiresAt", "name"]);
  });

  it("refuses a stored login whose token is not allowed every backend here", async () => {
    const { store } = recordingStore();
    const id = (await createDashboardAuth({ tokens, store }).login("admin-token")) as string;
    // Another replica whose config limits "admin" to a profile, or does not know it.
    const limited = [{ name: "admin", token: "admin-token", profiles: ["team"] }];
    expect(await createDashboardAuth({ tokens: limited, store }).identify(withCookie(id))).toBe(
      undefined,
    );
    const other = [{ name: "root", token: "root-token" }];
    expect(await createDashboardAuth({ tokens: other, store }).identify(withCookie(id))).toBe(
      undefined,
    );
  });

  it("does not look up a cookie that is no login id, and rejects when the store fails", async () => {
    const gets: string[] = [];
    const failing: DashboardLoginStore = {
      add: () => Promise.reject(new Error("store down")),
      get: (key) => {
        gets.push(key);
        return Promise.reject(new Error("store down"));
      },
      remove: () => Promise.reject(new Error("store down")),
    };
    const auth = createDashboardAuth({ tokens, store: failing });
    expect(await auth.identify(withCookie("not-a-login-id"))).toBe(undefined);
    expect(gets).toEqual([]);
    const id = "A".repeat(43);
    await expect(auth.identify(withCookie(id))).rejects.toThrow("store down");
    await expect(auth.login("admin-token")).rejects.toThrow("store down");
    await expect(auth.logout(withCookie(id))).rejects.toThrow("store down");
    // A bad token never reaches the store; a bearer header never needs it.
    expect(await auth.login("wrong")).toBe(undefined);
    const bearer = await auth.identify(request({ authorization: "Bearer admin-token" }));
    expect(bearer?.name).toBe("admin");
  });
});
