/**
 * A person at the authorization server's development login and consent pages (oidc-provider's
 * devInteractions), without a browser: follows its redirects with a cookie jar and submits each
 * page's form (any login name and password sign in), until it redirects to `redirectUrl`.
 * Resolves with that redirect URL (with `code`, `state` and `iss`).
 */
export async function signInWithForms(authorizationUrl: URL, redirectUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  let init: RequestInit = {};
  for (let step = 0; step < 12; step++) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] as string;
      const equals = pair.indexOf("=");
      cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    const location = response.headers.get("location");
    if (location !== null) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUrl)) return next.href;
      url = next.href;
      init = {};
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    if (form === null) throw new Error(`no form on the page (HTTP ${response.status})`);
    const fields = new URLSearchParams();
    for (const [input] of (form[2] as string).matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input)?.[1];
      if (name !== undefined) fields.set(name, /value="([^"]*)"/.exec(input)?.[1] ?? "");
    }
    if (fields.has("login")) {
      fields.set("login", "ada");
      fields.set("password", "any password");
    }
    url = new URL(form[1] as string, url).href;
    init = {
      method: "POST",
      body: fields.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  throw new Error("the sign-in did not come back to the redirect URL");
}
