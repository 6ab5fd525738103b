import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createDashboardAuth, DASHBOARD_COOKIE } from "./dashboard-auth.js";

const tokens = [
  { name: "admin", token: "admin-token" },
  { name: "team", token: "team-token", profiles: ["team"] },
];

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}
const withCookie = (id: string) => request({ cookie: `other=1; ${DASHBOARD_COOKIE}=${id}` });

describe("createDashboardAuth", () => {
  it("logs in only a token allowed every backend", () => {
    const auth = createDashboardAuth({ tokens });
    expect(auth.login("team-token")).toBe(undefined);
    expect(auth.login("wrong")).toBe(undefined);
    const id = auth.login("admin-token") as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.identify(withCookie(id))?.name).toBe("admin");
    expect(auth.identify(withCookie(`${id}x`))).toBe(undefined);
  });

  it("accepts a bearer header, and refuses one for a profile-limited token", () => {
    const auth = createDashboardAuth({ tokens });
    expect(auth.identify(request({ authorization: "Bearer admin-token" }))?.name).toBe("admin");
    expect(auth.identify(request({ authorization: "Bearer team-token" }))).toBe(undefined);
  });

  it("ends a login after its time to live and on logout", () => {
    let now = 0;
    const auth = createDashboardAuth({ tokens, loginTtlMs: 1_000, now: () => now });
    const first = auth.login("admin-token") as string;
    const second = auth.login("admin-token") as string;
    auth.logout(withCookie(second));
    expect(auth.identify(withCookie(second))).toBe(undefined);
    now = 999;
    expect(auth.identify(withCookie(first))?.name).toBe("admin");
    now = 1_000;
    expect(auth.identify(withCookie(first))).toBe(undefined);
  });

  it("keeps at most maxLogins, dropping the oldest", () => {
    const auth = createDashboardAuth({ tokens, maxLogins: 2 });
    const [a, b, c] = [1, 2, 3].map(() => auth.login("admin-token") as string);
    expect(auth.identify(withCookie(a as string))).toBe(undefined);
    expect(auth.identify(withCookie(b as string))?.name).toBe("admin");
    expect(auth.identify(withCookie(c as string))?.name).toBe("admin");
  });

  it("lets everyone in when the proxy has no tokens, as the API does", () => {
    const auth = createDashboardAuth({ tokens: undefined });
    expect(auth.enabled).toBe(false);
    expect(auth.identify(request({}))?.name).toBe("anonymous");
    expect(auth.login("anything")).toBe(undefined);
  });
});
