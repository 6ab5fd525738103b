import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's `chromium` package (.ci/run installs it when missing). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Starts headless Chromium for a test's pages (sign-ins, the dashboard); the test closes it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: ["--no-sandbox"],
  });
}

/**
 * A person at the test authorization server's login and consent pages (oidc-provider's
 * development interactions), where `page` is: signs in as `login` (any password does) and
 * consents. The browser then goes back to the client's redirect URI.
 */
export async function signInAndConsent(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.locator('button[type="submit"]').click();
  await page
    .locator('button[type="submit"]')
    .filter({ hasText: /continue/i })
    .click();
}
