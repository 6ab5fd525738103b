import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCredentialsCommand } from "../src/credentials-cli.js";
import { type EchoUpstream, startEchoUpstream } from "./oauth-upstream.js";
import {
  type CliOutcome,
  closeSdk,
  connectSdk,
  runProxyCli,
  startTestProxy,
  type TestProxy,
  writeConfig,
} from "./proxy-helpers.js";

const KEY = randomBytes(32).toString("base64");
const TOKENS = {
  alice: "alice-proxy-token-0123456789",
  bob: "bob-proxy-token-0123456789ab",
  carol: "carol-proxy-token-0123456789",
};
/** What the operator stores for each principal: the upstream must see each one's own. */
const UPSTREAM = {
  alice: "alice-upstream-secret-4f1c",
  bob: "bob-upstream-secret-9a2e",
  carol: "carol-upstream-secret-77d0",
};

/** Alice's value for the backend that prints it. */
const LEAKY = "alice-leaky-secret-0c3b";

/** `patchbay-proxy credentials …` in process (the command the binary runs), with `stdin`. */
async function credentialsInProcess(
  args: readonly string[],
  stdin = "",
): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const code = await runCredentialsCommand(args, {
    environment: { PATCHBAY_CREDENTIALS_KEY: KEY },
    readStdin: async () => stdin,
    write: (text) => {
      stdout += text;
    },
  });
  return { code, stdout };
}

/** Runs the real `patchbay-proxy credentials …` process with `stdin`; its exit code and output. */
function credentialsCli(args: readonly string[], stdin = ""): Promise<CliOutcome> {
  return runProxyCli(["credentials", ...args], { stdin, env: { PATCHBAY_CREDENTIALS_KEY: KEY } });
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((item) => item.text).join("");
}

describe("per-user credentials toward a backend", { timeout: 15_000 }, () => {
  let upstream: EchoUpstream;
  let folder: string;
  let storePath: string;
  let cliConfig: { path: string; remove(): void };
  let config: Record<string, unknown>;
  let proxy: TestProxy | undefined;

  beforeAll(async () => {
    upstream = await startEchoUpstream();
    folder = mkdtempSync(join(tmpdir(), "patchbay-user-credentials-"));
    storePath = join(folder, "credentials.json");
    config = {
      mcpServers: {
        up: {
          url: upstream.url,
          transport: "http",
          isolation: "per-principal",
          credentials: { headers: { Authorization: "Bearer {{token}}" } },
        },
        // A command backend that prints its credential on stderr (which the proxy logs) and exits.
        leaky: {
          command: process.execPath,
          args: ["-e", "console.error('my token is ' + process.env.LEAKY_TOKEN); process.exit(1)"],
          isolation: "per-principal",
          credentials: { env: ["LEAKY_TOKEN"] },
          restart: false,
        },
      },
      auth: { tokens: Object.entries(TOKENS).map(([name, token]) => ({ name, token })) },
      credentials: { file: storePath },
    };
    cliConfig = writeConfig(config);
    const leaky = await credentialsInProcess(
      ["set", "--config", cliConfig.path, "alice", "leaky", "LEAKY_TOKEN"],
      LEAKY,
    );
    expect(leaky.code).toBe(0);
    const stored = await Promise.all(
      (["alice", "bob"] as const).map((name) =>
        credentialsInProcess(
          ["set", "--config", cliConfig.path, name, "up", "token"],
          `${UPSTREAM[name]}\n`,
        ),
      ),
    );
    for (const result of stored) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^stored token of up for (alice|bob)\n$/);
    }
    proxy = await startTestProxy(config, { environment: { PATCHBAY_CREDENTIALS_KEY: KEY } });
  }, 15_000);

  afterAll(async () => {
    await proxy?.stop();
    cliConfig?.remove();
    rmSync(folder, { recursive: true, force: true });
    await upstream?.close();
  });

  it("calls the backend with each principal's own credential, one instance each", async () => {
    if (proxy === undefined) throw new Error("no proxy");
    const leaked = proxy.waitForLog((line) => line.includes("my token is"));
    const alice = await connectSdk(proxy.url, { token: TOKENS.alice });
    const bob = await connectSdk(proxy.url, { token: TOKENS.bob });
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${UPSTREAM.alice}`,
    );
    expect(textOf(await bob.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${UPSTREAM.bob}`,
    );
    expect(upstream.sessions()).toBe(2);
    expect(new Set(upstream.authorizations)).toEqual(
      new Set([`Bearer ${UPSTREAM.alice}`, `Bearer ${UPSTREAM.bob}`]),
    );
    // Neither the status a model may read nor the proxy's log shows a value.
    const status = JSON.stringify(await alice.client.callTool({ name: "gateway_status" }));
    const events = JSON.stringify(await alice.client.callTool({ name: "get_events" }));
    // Alice's leaky instance started with her session: what it printed is logged, masked.
    expect(await leaked).not.toContain(LEAKY);
    for (const shown of [status, events, proxy.logs.join("\n")]) {
      for (const value of [UPSTREAM.alice, UPSTREAM.bob, LEAKY]) expect(shown).not.toContain(value);
    }
    await Promise.all([closeSdk(alice), closeSdk(bob)]);
  });

  it("gives a principal without a stored value a clear error, and the backend sees nothing", async () => {
    if (proxy === undefined) throw new Error("no proxy");
    const carol = await connectSdk(proxy.url, { token: TOKENS.carol });
    const requestsBefore = upstream.authorizations.length;
    const result = await carol.client.callTool({ name: "up__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("backend up needs your credential (token)");
    expect(textOf(result)).toContain("patchbay-proxy credentials set --config <file> carol up");
    expect(upstream.authorizations.length).toBe(requestsBefore);
    // Stored while the proxy runs, with the real binary reading stdin: carol's next instance uses it.
    const reread = proxy.waitForLog((line) => line.includes("credential store read again"));
    const stored = await credentialsCli(
      ["set", "--config", cliConfig.path, "carol", "up", "token"],
      UPSTREAM.carol,
    );
    expect(stored).toEqual({ code: 0, stdout: "stored token of up for carol\n", stderr: "" });
    await reread;
    expect(textOf(await carol.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${UPSTREAM.carol}`,
    );
    await closeSdk(carol);
  });

  it("keeps the store encrypted, mode 0600, and lists places without values", async () => {
    const bytes = readFileSync(storePath, "utf8");
    for (const value of [...Object.values(UPSTREAM), LEAKY]) expect(bytes).not.toContain(value);
    expect(statSync(storePath).mode & 0o777).toBe(0o600);
    const listed = await credentialsInProcess(["list", "--config", cliConfig.path]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      "alice\tleaky\tLEAKY_TOKEN\nalice\tup\ttoken\nbob\tup\ttoken\ncarol\tup\ttoken\n",
    );
  });

  it("refuses to start with another key, or without one", async () => {
    await expect(
      startTestProxy(config, {
        environment: { PATCHBAY_CREDENTIALS_KEY: randomBytes(32).toString("hex") },
      }),
    ).rejects.toThrow(/credentials\.json was sealed with another key/);
    await expect(startTestProxy(config)).rejects.toThrow(/PATCHBAY_CREDENTIALS_KEY is not set/);
  });
});
