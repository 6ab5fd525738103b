import { setDefaultAutoSelectFamilyAttemptTimeout } from "node:net";
import { inspect } from "node:util";
import {
  type Client,
  createClient,
  createOAuthClient,
  type OAuthFetch,
  type ProtocolEraOption,
} from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";

/** What the conformance CLI passes in `MCP_CONFORMANCE_CONTEXT` (the fields this client reads). */
interface ScenarioContext {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly toolCalls?: readonly { name: string; arguments: Record<string, unknown> }[];
}

/** The client ID metadata document URL the suite's authorization server knows (`auth/basic-cimd`). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** The suite's default time limit for one scenario's client (`--timeout`). */
const SCENARIO_TIMEOUT_MS = 30_000;
/** Never opened: the suite's authorization server redirects here with the code. */
const REDIRECT_URL = "http://localhost:3000/callback";

function readContext(): ScenarioContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw === undefined || raw === "" ? {} : (JSON.parse(raw) as ScenarioContext);
}

/**
 * Signs in without a browser: the suite's authorization server approves at once and answers the
 * authorization request with a redirect to `REDIRECT_URL`, whose `Location` carries the code.
 */
async function followAuthorizationRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) {
    throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  }
  return new URL(location, authorizationUrl).href;
}

function oauthFetch(serverUrl: string, scenario: string, context: ScenarioContext): OAuthFetch {
  const preRegistered =
    context.client_id === undefined
      ? undefined
      : {
          clientId: context.client_id,
          ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
        };
  const oauth = createOAuthClient({
    serverUrl,
    redirectUrl: REDIRECT_URL,
    authorize: followAuthorizationRedirect,
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(preRegistered === undefined ? {} : { client: preRegistered }),
    clientName: `patchbay-conformance ${scenario}`,
    allowInsecureHttp: true,
  });
  return oauth.fetch;
}

/**
 * The era the suite runs the scenario at (`MCP_CONFORMANCE_PROTOCOL_VERSION`): 2026-07-28 and
 * later speak the modern protocol (no initialize); earlier revisions the legacy one.
 */
function eraOf(protocolVersion: string | undefined): ProtocolEraOption {
  if (protocolVersion === undefined || protocolVersion === "") return "auto";
  return protocolVersion >= "2026-07-28" ? "modern" : "legacy";
}

/** A value of the JSON Schema `type` a tool argument asks for. */
function sampleArgument(schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return {};
  return "conformance";
}

function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties ?? {}))
    args[name] = sampleArgument(schema);
  return args;
}

/** Calls the context's tool calls, or else every tool the server lists (with sample arguments). */
async function callTools(client: Client, context: ScenarioContext): Promise<void> {
  const { tools } = await client.listTools();
  const calls =
    context.toolCalls ??
    tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }));
  for (const call of calls) await client.callTool(call);
}

/** Lists and reads what the server offers beyond tools; a server without them answers an error. */
async function touchResourcesAndPrompts(client: Client): Promise<void> {
  const capabilities = client.serverCapabilities;
  if (capabilities?.resources !== undefined) {
    const { resources } = await client.listResources();
    const first = resources[0];
    if (first !== undefined) await client.readResource({ uri: first.uri });
  }
  if (capabilities?.prompts !== undefined) {
    const { prompts } = await client.listPrompts();
    const first = prompts[0];
    if (first !== undefined) await client.getPrompt({ name: first.name });
  }
}

async function run(serverUrl: string, scenario: string): Promise<void> {
  const context = readContext();
  const fetchWithAuth = scenario.startsWith("auth/")
    ? oauthFetch(serverUrl, scenario, context)
    : undefined;
  const client = createClient(
    { name: "patchbay-conformance-client", version: "1.0.0" },
    {
      protocolEra: eraOf(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION),
      // The suite starts every scenario's client at once, and a request that meets a 401 carries
      // the whole sign-in: wait as long as the suite gives a scenario, not the 10 s default.
      discoverTimeoutMs: SCENARIO_TIMEOUT_MS,
      requestTimeoutMs: SCENARIO_TIMEOUT_MS,
      elicitation: () => ({ action: "accept", content: {} }),
      sampling: () => ({
        role: "assistant",
        content: { type: "text", text: "conformance" },
        model: "conformance",
      }),
    },
  );
  const transport = new StreamableHttpClientTransport({
    url: serverUrl,
    ...(fetchWithAuth === undefined ? {} : { fetch: fetchWithAuth }),
  });
  await client.connect(transport);
  try {
    await callTools(client, context);
    if (!scenario.startsWith("auth/")) await touchResourcesAndPrompts(client);
  } finally {
    await client.close();
  }
}

/**
 * Extension scenarios (run by the suite, never scored) whose flows @patchbay/client does not
 * implement: refused at once rather than left to time out.
 */
const UNSUPPORTED_SCENARIOS = new Set([
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/enterprise-managed-authorization",
  "auth/dpop",
  "auth/dpop-nonce",
  "auth/wif-jwt-bearer",
]);

async function main(): Promise<void> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const serverUrl = process.argv[2];
  if (scenario === undefined || serverUrl === undefined) {
    throw new Error("usage: MCP_CONFORMANCE_SCENARIO=<name> everything-client <serverUrl>");
  }
  if (UNSUPPORTED_SCENARIOS.has(scenario)) {
    throw new Error(`${scenario}: @patchbay/client does not implement this flow`);
  }
  try {
    await run(serverUrl, scenario);
  } catch (error) {
    throw new Error(`${scenario} failed`, { cause: error });
  }
}

// The suite's servers listen on `localhost`, which resolves to ::1 and 127.0.0.1; Node tries each
// address for 250 ms by default, and with every scenario's client starting at once on a busy
// machine a connection that the kernel made at once can be seen after that, failing the request
// with "fetch failed". Give each address as long as a busy event loop needs.
setDefaultAutoSelectFamilyAttemptTimeout(5_000);

main().catch((error: unknown) => {
  // The whole cause chain: a transport failure's reason sits three causes deep.
  console.error(inspect(error, { depth: null }));
  process.exitCode = 1;
});
