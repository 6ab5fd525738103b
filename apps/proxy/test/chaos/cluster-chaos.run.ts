import { randomInt } from "node:crypto";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createClient } from "@patchbay/client";
import {
  type LoadBalancer,
  type RedisServerProcess,
  startLoadBalancer,
  startRedisServer,
  TARGET_HEADER,
} from "@patchbay/cluster-redis/testing";
import { createSampleServer, type RunningListener, serveHttp } from "@patchbay/sample-backend";
import { createSseParser, StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ProxyReplica, startReplica } from "../cluster-harness.js";
import { writeConfig } from "../proxy-files.js";

// `pnpm test:chaos` (not in CI): three replicas on one Redis behind a round-robin balancer without
// affinity, clients of three kinds under load (the official SDK 1.x client, @patchbay/client and
// raw HTTP), and faults at seeded random moments: SIGKILL of a replica (at any moment, right after
// a POST's SSE answer started, right after a GET stream opened), its restart, and Redis stopped
// for a few seconds. It counts every call's outcome and fails on any violation: a call answered
// twice, a call past its deadline, a wrong result, a session that does not continue, a rate limit
// exceeded. CHAOS_SEED repeats a run's choices; CHAOS_DURATION_MS sets its length (default 60 s).

const seed = Number(process.env.CHAOS_SEED ?? randomInt(2 ** 31));
const durationMs = Number(process.env.CHAOS_DURATION_MS ?? 60_000);
/** A call not answered by then is a violation. */
const DEADLINE_MS = 15_000;
/** Requests per minute per client address (each client has its own, through `X-Forwarded-For`). */
const LIMIT = 300;
const VERSION = "2025-11-25";

/** mulberry32: a small seeded generator, so that a run's choices repeat with its seed. */
function seeded(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** The faults' choices (what, where, when) repeat with the seed. */
const faultRandom = seeded(seed);
/** The load's choices: apart, so that how many calls ran changes no fault. */
const loadRandom = seeded(seed + 1);
const between = (low: number, high: number, random = faultRandom) =>
  low + Math.floor(random() * (high - low));
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let backend: RunningListener;
let redis: RedisServerProcess;
let balancer: LoadBalancer;
let config: { path: string; remove(): void };
/** The replica in each balancer slot (a killed one is replaced in its slot). */
const slots: ProxyReplica[] = [];
/** The balancer's targets: mutated in place when a slot gets a restarted replica. */
const origins: URL[] = [];
const allReplicas: ProxyReplica[] = [];
let restarts = 0;

beforeAll(async () => {
  backend = await serveHttp(createSampleServer(), "127.0.0.1", 0);
  redis = await startRedisServer();
  config = writeConfig({
    mcpServers: { sample: { url: backend.url.href, transport: "http" } },
    limits: { requestsPerMinute: LIMIT },
    http: { trustProxy: true },
    cluster: {
      redis: "redis://unused:1",
      replicaId: "x",
      secret: "chaos-run-cluster-secret-0123456789abcdef",
      heartbeatIntervalMs: 200,
      heartbeatTimeoutMs: 10_000,
    },
  });
  for (const index of [0, 1, 2]) {
    const replica = await startReplica(config.path, redis.url, `replica-${index}`);
    slots.push(replica);
    allReplicas.push(replica);
    origins.push(replica.origin);
  }
  balancer = await startLoadBalancer(origins);
}, 30_000);

afterAll(async () => {
  await balancer?.close();
  await Promise.all(
    allReplicas.map(async (replica) => {
      if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
      process.kill(replica.child.pid as number, "SIGTERM");
      await replica.exited;
    }),
  );
  await redis?.stop();
  await backend?.close();
  config?.remove();
}, 30_000);

/**
 * `broken`: the balancer's 502 or a stream with no event id to resume (the replica died before the
 * answer's first event: a documented limit); `store-down`: -32016 or 503 while Redis was down.
 */
type Outcome =
  | "result"
  | "replica-lost"
  | "store-down"
  | "broken"
  | "other-error"
  | "late"
  | "wrong-result";
interface CallRecord {
  readonly client: string;
  readonly tool: string;
  outcome: Outcome;
  detail?: string;
}
const calls: CallRecord[] = [];
const violations: string[] = [];
const faults: string[] = [];
let stopping = false;

/** A client under test: one tool call at a time (`call`), and how it reports answers twice. */
interface LoadClient {
  readonly name: string;
  call(tool: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

const addressOf = (index: number) => `10.0.0.${index + 1}`;
const forwarded = (address: string): typeof fetch => {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", address);
    return fetch(input, { ...init, headers });
  };
};

async function sdkClient(name: string, address: string): Promise<LoadClient> {
  const client = new SdkClient({ name, version: "1.0.0" });
  client.onerror = (error) => {
    // A second answer to a call reaches the SDK as a response to an unknown id.
    if (/unknown message ID/i.test(String(error))) violations.push(`${name}: ${String(error)}`);
  };
  await client.connect(
    new StreamableHTTPClientTransport(balancer.url, { fetch: forwarded(address) }),
  );
  return {
    name,
    call: (tool, args) =>
      client.callTool({ name: tool, arguments: args }, undefined, { timeout: DEADLINE_MS }),
    close: () => client.close(),
  };
}

async function patchbayClient(name: string, address: string): Promise<LoadClient> {
  const client = createClient({ name, version: "1.0.0" }, {});
  await client.connect(
    new StreamableHttpClientTransport({
      url: balancer.url,
      headers: { "x-forwarded-for": address },
    }),
  );
  return {
    name,
    call: (tool, args) =>
      client.callTool({ name: tool, arguments: args }, { timeoutMs: DEADLINE_MS }),
    close: () => client.close(),
  };
}

/** The SSE messages of one response, with the last event id seen; resolves when it ends. */
async function readSse(response: Response, onMessage: (message: Record<string, unknown>) => void) {
  let lastEventId: string | undefined;
  const parser = createSseParser({
    onEvent: (event) => {
      if (event.id !== undefined && event.id !== "") lastEventId = event.id;
      if (event.data !== "") onMessage(JSON.parse(event.data) as Record<string, unknown>);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
      parser.push(decoder.decode(chunk));
    }
  } catch {
    // Broken off: its replica was killed.
  }
  return lastEventId;
}

/**
 * A client of raw HTTP: each call a POST; an SSE answer that breaks is resumed with a GET and
 * `Last-Event-ID` through the balancer (as the spec says), until its answer came. Every message
 * answering the call's id is counted: more than one is a violation. It keeps a GET stream open too.
 */
async function rawClient(name: string, address: string): Promise<LoadClient> {
  const headers = (sessionId?: string): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": VERSION,
    "x-forwarded-for": address,
    ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
  });
  const initialize = await fetch(balancer.url, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name, version: "1" } },
    }),
  });
  await initialize.text();
  const sessionId = initialize.headers.get("mcp-session-id") as string;
  await (
    await fetch(balancer.url, {
      method: "POST",
      headers: headers(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    })
  ).text();
  const standalone = new AbortController();
  void (async () => {
    // The session's GET stream, reopened whenever a kill breaks it.
    while (!standalone.signal.aborted) {
      try {
        const response = await fetch(balancer.url, {
          headers: { ...headers(sessionId), accept: "text/event-stream" },
          signal: standalone.signal,
        });
        await readSse(response, () => {});
        if (response.status !== 200) await delay(200);
      } catch {
        await delay(200);
      }
    }
  })();
  let nextId = 1;
  /** A call; one past its deadline says which replicas its POST and resumes reached. */
  async function call(tool: string, args: Record<string, unknown>) {
    const trail: string[] = [];
    try {
      return await exchange(tool, args, trail);
    } catch (error) {
      const { name: kind } = error as Error;
      if (kind !== "TimeoutError" && kind !== "AbortError") throw error;
      throw Object.assign(new Error(`${String(error)}; ${trail.join(", ")}`), { name: kind });
    }
  }
  async function exchange(tool: string, args: Record<string, unknown>, trail: string[]) {
    const id = nextId++;
    const hop = (method: string, answer: Response) =>
      trail.push(
        `${method} ${slots[Number(answer.headers.get(TARGET_HEADER))]?.replicaId} ${answer.status}`,
      );
    const answers: Record<string, unknown>[] = [];
    const collect = (message: Record<string, unknown>) => {
      if (message.id === id) answers.push(message);
    };
    const deadline = AbortSignal.timeout(DEADLINE_MS);
    let response = await fetch(balancer.url, {
      method: "POST",
      headers: headers(sessionId),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: tool, arguments: args },
      }),
      signal: deadline,
    });
    hop(`POST ${id}`, response);
    if (response.status === 502) throw new BrokenError("the balancer's 502: no stream to resume");
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      const body = (await response.json()) as { id?: unknown; error?: { message: string } };
      // A refusal before the call was read (503 while Redis is down, 429) names no id.
      if (body.id === null && body.error !== undefined) {
        throw Object.assign(new Error(body.error.message), body.error);
      }
      collect(body as Record<string, unknown>);
    } else {
      let lastEventId = await readSse(response, collect);
      trail.push(`ended at ${lastEventId}`);
      while (answers.length === 0) {
        if (lastEventId === undefined) throw new BrokenError("no event id to resume with");
        response = await fetch(balancer.url, {
          headers: {
            ...headers(sessionId),
            accept: "text/event-stream",
            "last-event-id": lastEventId,
          },
          signal: deadline,
        });
        hop(`GET after ${lastEventId}`, response);
        if (response.status !== 200) {
          await response.text();
          await delay(200);
          continue;
        }
        lastEventId = (await readSse(response, collect)) ?? lastEventId;
        trail.push("ended");
      }
    }
    if (answers.length > 1) {
      violations.push(`${name}: call ${id} answered ${answers.length} times`);
    }
    if (answers.length === 0) throw new Error(`no answer to call ${id} (HTTP ${response.status})`);
    const [answer] = answers as { result?: unknown; error?: { code: number; message: string } }[];
    if (answer?.error !== undefined)
      throw Object.assign(new Error(answer.error.message), answer.error);
    return answer?.result;
  }
  return {
    name,
    call,
    async close() {
      standalone.abort();
      await fetch(balancer.url, { method: "DELETE", headers: headers(sessionId) }).catch(() => {});
    },
  };
}

class BrokenError extends Error {}

/** Sorts a call's rejection into an outcome. */
function outcomeOf(error: unknown): Pick<CallRecord, "outcome" | "detail"> {
  const { code, name, message } = error as { code?: number; name?: string; message?: string };
  if (code === -32017) return { outcome: "replica-lost" };
  if (code === -32001 || name === "TimeoutError" || name === "AbortError") {
    return { outcome: "late", detail: String(message) };
  }
  if (code === -32016 || /shared session store cannot be reached/.test(String(message))) {
    return { outcome: "store-down", detail: String(message) };
  }
  if (
    error instanceof BrokenError ||
    /bad gateway|fetch failed|terminated/i.test(String(message))
  ) {
    return { outcome: "broken", detail: String(message) };
  }
  return { outcome: "other-error", detail: `${code ?? name}: ${message}` };
}

/** Calls from one client until the run stops: echo or a short long_task, two at a time. */
async function load(client: LoadClient) {
  async function worker(lane: number) {
    let sequence = 0;
    while (!stopping) {
      const long = loadRandom() < 0.5;
      const tool = long ? "sample__long_task" : "sample__echo";
      const message = `${client.name}-${lane}-${sequence++}`;
      const args = long ? { steps: between(2, 6, loadRandom), stepMs: 100 } : { message };
      const record: CallRecord = { client: client.name, tool, outcome: "result" };
      calls.push(record);
      const started = Date.now();
      try {
        const result = (await client.call(tool, args)) as { content?: { text?: string }[] };
        if (!long && result?.content?.[0]?.text !== message) {
          record.outcome = "wrong-result";
          record.detail = JSON.stringify(result);
        }
      } catch (error) {
        Object.assign(record, outcomeOf(error));
      }
      if (Date.now() - started > DEADLINE_MS + 1_000 && record.outcome !== "late") {
        record.outcome = "late";
        record.detail = `answered after ${Date.now() - started} ms`;
      }
      await delay(between(200, 700, loadRandom));
    }
  }
  await Promise.all([worker(0), worker(1)]);
}

/** Kills the replica in `slot` with SIGKILL, then starts a new one in its place. */
async function killAndRestart(slot: number, how: string) {
  const victim = slots[slot] as ProxyReplica;
  process.kill(victim.child.pid as number, "SIGKILL");
  await victim.exited;
  faults.push(`${new Date().toISOString()} SIGKILL ${victim.replicaId} (${how})`);
  await delay(between(500, 2_000));
  const replica = await startReplica(config.path, redis.url, `replica-${slot}-r${++restarts}`);
  allReplicas.push(replica);
  slots[slot] = replica;
  origins[slot] = replica.origin;
}

/** The slot of the next request of `method` the balancer routes (within 3 s), else a random one. */
async function nextRouted(method: string): Promise<number> {
  const timeout = delay(3_000).then(() => undefined);
  const hop = await Promise.race([balancer.next((routed) => routed.method === method), timeout]);
  return hop?.target ?? between(0, 3);
}

/**
 * Sends `2 × LIMIT` cheap requests from a fresh address, 25 at a time: at most `LIMIT` may pass the
 * rate limit, and what its bucket refilled meanwhile (`LIMIT` a minute); while Redis is down too
 * (each replica then takes its share).
 */
async function probeRateLimit(label: string, address: string) {
  const started = Date.now();
  let admitted = 0;
  let limited = 0;
  for (let batch = 0; batch < (2 * LIMIT) / 25; batch++) {
    const statuses = await Promise.all(
      Array.from({ length: 25 }, async () => {
        const response = await fetch(balancer.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "x-forwarded-for": address,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }).catch(() => undefined);
        await response?.text();
        return response?.status;
      }),
    );
    admitted += statuses.filter((status) => status !== 429 && status !== undefined).length;
    limited += statuses.filter((status) => status === 429).length;
  }
  const elapsedMs = Date.now() - started;
  const allowed = LIMIT + Math.ceil((elapsedMs * LIMIT) / 60_000);
  faults.push(
    `${new Date().toISOString()} rate-limit probe (${label}): ${admitted} admitted (at most ${allowed} in ${elapsedMs} ms), ${limited} refused (429)`,
  );
  if (admitted > allowed) {
    violations.push(`rate limit (${label}): ${admitted} admitted of at most ${allowed}`);
  }
}

async function faultsUntil(end: number) {
  let outages = 0;
  let probes = 0;
  while (Date.now() < end) {
    await delay(between(1_000, 4_000));
    const pick = faultRandom();
    if (pick < 0.2 && outages < 2) {
      outages++;
      await redis.shutdown();
      faults.push(`${new Date().toISOString()} Redis stopped`);
      await Promise.all([
        delay(between(2_000, 5_000)),
        probeRateLimit("Redis down", `10.1.0.${++probes}`),
      ]);
      await redis.startAgain();
      faults.push(`${new Date().toISOString()} Redis started again (empty)`);
    } else if (pick < 0.45) {
      await killAndRestart(between(0, 3), "at a random moment");
    } else if (pick < 0.75) {
      await killAndRestart(await nextRouted("POST"), "its POST answer just started");
    } else {
      await killAndRestart(await nextRouted("GET"), "its GET stream just opened");
    }
  }
}

it("answers every call exactly once, by its deadline, with sessions that continue and limits that hold", async () => {
  console.log(`chaos: seed ${seed} (CHAOS_SEED=${seed} repeats these choices), ${durationMs} ms`);
  const clients = await Promise.all([
    sdkClient("sdk-0", addressOf(0)),
    sdkClient("sdk-1", addressOf(1)),
    patchbayClient("patchbay-0", addressOf(2)),
    patchbayClient("patchbay-1", addressOf(3)),
    rawClient("raw-0", addressOf(4)),
    rawClient("raw-1", addressOf(5)),
  ]);
  await probeRateLimit("all up", "10.2.0.1");
  const loads = Promise.all(clients.map(load));
  await faultsUntil(Date.now() + durationMs);
  stopping = true;
  await loads;
  await probeRateLimit("after the run", "10.2.0.2");
  // Every session continues: one more call each, answered with its result.
  for (const client of clients) {
    const message = `${client.name}-after`;
    try {
      const result = (await client.call("sample__echo", { message })) as {
        content: { text: string }[];
      };
      if (result.content[0]?.text !== message)
        violations.push(`${client.name}: wrong result after the run`);
    } catch (error) {
      violations.push(`${client.name}: its session did not continue: ${String(error)}`);
    }
  }
  await Promise.all(clients.map((client) => client.close()));

  for (const call of calls) {
    if (
      call.outcome === "late" ||
      call.outcome === "wrong-result" ||
      call.outcome === "other-error"
    ) {
      violations.push(`${call.client} ${call.tool}: ${call.outcome} ${call.detail ?? ""}`);
    }
  }
  const table: Record<string, Record<Outcome, number>> = {};
  for (const call of calls) {
    const kind = call.client.replace(/-\d+$/, "");
    table[kind] ??= {
      result: 0,
      "replica-lost": 0,
      "store-down": 0,
      broken: 0,
      "other-error": 0,
      late: 0,
      "wrong-result": 0,
    };
    table[kind][call.outcome]++;
  }
  console.log(`chaos: seed ${seed}; faults:\n  ${faults.join("\n  ")}`);
  console.log(`chaos: ${calls.length} calls by client kind and outcome:`);
  console.table(table);
  console.log(
    `chaos: ${violations.length} violation(s)${violations.length > 0 ? `:\n  ${violations.slice(0, 50).join("\n  ")}` : ""}`,
  );
  expect(violations).toEqual([]);
}, 600_000);
