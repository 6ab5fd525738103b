// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText (rendered text, table cells apart), not a DOM node's
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

/** Debian's `chromium` package (.ci/run installs it when missing). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ADMIN = "admin-token-0123456789abcdef";

let proxy: TestProxy;
let browser: Browser;
let screenshots: string;
beforeAll(async () => {
  screenshots = mkdtempSync(join(tmpdir(), "patchbay-dashboard-"));
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry(), other: sampleEntry() },
    profiles: { team: { servers: ["sample"] } },
    auth: { tokens: [{ name: "admin", token: ADMIN }] },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: ["--no-sandbox"],
  });
});
afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  rmSync(screenshots, { recursive: true, force: true });
});

describe("the dashboard in headless Chromium", () => {
  it("logs in with a token, shows backends, tools and sessions, and a call in the live feed", async () => {
    const caller = await connectSdk(proxy.url, { token: ADMIN, name: "browser-test-client" });
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));

    await page.goto(proxy.at("/dashboard").href);
    await page.getByLabel("Token").fill(ADMIN);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("status").filter({ hasText: "Live" }).waitFor();

    // Keyboard: the first Tab reaches the skip link, which moves focus to the live feed.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      "Skip to the live feed",
    );
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("feed");

    const backends = page.locator("#backends tbody");
    // The first snapshot arrives over the feed right after it opens.
    await backends.locator("tr", { hasText: "other" }).waitFor();
    expect(await backends.locator("tr").count()).toBe(2);
    expect(await backends.innerText()).toMatch(/sample\s+running\s+\d{4}-\d{2}-\d{2}/);
    expect(await backends.innerText()).toContain("other");
    const tools = await page.locator("#tools tbody").innerText();
    expect(tools).toMatch(/sample__echo\s+sample/);
    expect(tools).toMatch(/other__echo\s+other/);
    expect(await page.locator("#sessions tbody").innerText()).toMatch(
      /browser-test-client\s+\(all backends\)\s+admin/,
    );
    // A single process: the replicas panel says so, and no replica column is shown.
    expect(await page.getByRole("region", { name: "Replicas" }).innerText()).toMatch(
      /Replicas\s+Single process: no cluster\.$/,
    );
    expect(await page.getByRole("columnheader", { name: "Replica" }).count()).toBe(0);

    await caller.client.callTool({ name: "sample__echo", arguments: { message: "hello" } });
    const row = page.locator("#calls tbody tr", { hasText: "sample__echo" });
    await row.waitFor();
    expect(await row.innerText()).toMatch(
      /tools\/call\s+sample__echo\s+sample\s+success\s+[\d.]+ ms\s+[0-9a-f]{32}/,
    );

    // A failing call counts in the error rate at a glance.
    await caller.client.callTool({ name: "sample__test_error_handling", arguments: {} });
    const failed = page.locator("#calls tbody tr", { hasText: "sample__test_error_handling" });
    await failed.waitFor();
    expect(await failed.innerText()).toContain("tool_error");
    expect(await page.locator("#errors-rate").innerText()).toBe("1");
    const shown = await page.locator("#calls tbody tr").count();
    expect(await page.locator("#calls-rate").innerText()).toBe(String(shown));

    // The filter hides what does not match, and is reachable by its label.
    await page.getByLabel("Filter calls").fill("no-such-call");
    await page.getByText("No call matches the filter").waitFor();
    await page.getByLabel("Filter calls").fill("echo");
    await row.waitFor();

    // Never a secret on the page, and the login cookie is out of scripts' reach.
    expect(await page.content()).not.toContain(ADMIN);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({
      name: "patchbay_dashboard",
      httpOnly: true,
      sameSite: "Strict",
    });
    expect(cookie?.value).not.toContain(ADMIN);

    await page.getByLabel("Filter calls").fill("");
    await page.getByLabel("Filter calls").blur();
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = join(screenshots, "dashboard.png");
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
    // To refresh the README's picture: PATCHBAY_DASHBOARD_SCREENSHOT=docs/dashboard.png.
    const keep = process.env.PATCHBAY_DASHBOARD_SCREENSHOT;
    if (keep !== undefined) copyFileSync(file, keep);
    expect(pageErrors).toEqual([]);
    await context.close();
    await closeSdk(caller);
  });
});
