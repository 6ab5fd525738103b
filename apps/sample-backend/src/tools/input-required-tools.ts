import type { RequestHandlerContext, Server } from "@patchbay/server";

type ElicitParams = Parameters<RequestHandlerContext["elicit"]>[0];

/** A form elicitation asking for one field (conformance MRTR fixtures). */
function askFor(message: string, field: string, type: "string" | "boolean"): ElicitParams {
  const property = type === "string" ? { type: "string" as const } : { type: "boolean" as const };
  return {
    mode: "form",
    message,
    requestedSchema: { type: "object", properties: { [field]: property }, required: [field] },
  };
}

const ASK_NAME = askFor("What is your name?", "name", "string");

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

function sampledText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  const value = (content as { text?: unknown } | undefined)?.text;
  return typeof value === "string" ? value : "No response";
}

/**
 * Tools of the MCP conformance suite's multi round-trip (MRTR, 2026-07-28) scenarios: each asks
 * through `context.elicit`/`sample`/`listRoots` with the input key the scenario expects. On a
 * modern request they answer `input_required` until the client retries with the answers; on a
 * legacy session the same calls are ordinary server-to-client requests.
 */
export function registerInputRequiredTools(server: Server): void {
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "MRTR: asks the user's name by elicitation, then greets them" },
    async (_args, context) => {
      const answer = await context.elicit(ASK_NAME, { inputKey: "user_name" });
      return text(`Hello, ${String(answer.content?.name ?? "stranger")}!`);
    },
  );
  server.registerTool(
    "test_input_required_result_sampling",
    { description: "MRTR: asks the client's model a question by sampling" },
    async (_args, context) => {
      const answer = await context.sample(
        {
          messages: [
            { role: "user", content: { type: "text", text: "What is the capital of France?" } },
          ],
          maxTokens: 100,
        },
        { inputKey: "capital_question" },
      );
      return text(`Sampling response: ${sampledText(answer)}`);
    },
  );
  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "MRTR: asks the client for its roots" },
    async (_args, context) => {
      const answer = await context.listRoots({ inputKey: "client_roots" });
      return text(`Roots: ${answer.roots.map((root) => root.uri).join(", ")}`);
    },
  );
  for (const name of [
    "test_input_required_result_request_state",
    "test_input_required_result_tampered_state",
  ]) {
    server.registerTool(
      name,
      {
        description: "MRTR: asks for a confirmation; the retry must echo the sealed request state",
      },
      async (_args, context) => {
        const answer = await context.elicit(askFor("Please confirm", "ok", "boolean"), {
          inputKey: "confirm",
        });
        // The request state was checked before this handler ran again (HMAC, see @patchbay/server).
        return text(`state-ok: confirmed=${String(answer.content?.ok)}`);
      },
    );
  }
  registerMultiInputTools(server);
}

function registerMultiInputTools(server: Server): void {
  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "MRTR: asks for elicitation, sampling and roots in one round" },
    async (_args, context) => {
      const [name, greeting, roots] = await Promise.all([
        context.elicit(ASK_NAME, { inputKey: "user_name" }),
        context.sample(
          {
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          },
          { inputKey: "greeting" },
        ),
        context.listRoots({ inputKey: "client_roots" }),
      ]);
      return text(
        `name=${String(name.content?.name)} greeting=${sampledText(greeting)} roots=${roots.roots.length}`,
      );
    },
  );
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "MRTR: asks two questions in two rounds" },
    async (_args, context) => {
      const step1 = await context.elicit(askFor("Step 1: What is your name?", "name", "string"), {
        inputKey: "step1",
      });
      const step2 = await context.elicit(
        askFor("Step 2: What is your favorite color?", "color", "string"),
        { inputKey: "step2" },
      );
      return text(`${String(step1.content?.name)} likes ${String(step2.content?.color)}`);
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "MRTR: asks only through the capabilities the request declared" },
    async (_args, context) => {
      const declared = context._meta?.["io.modelcontextprotocol/clientCapabilities"] as
        | Record<string, unknown>
        | undefined;
      const asks: Promise<unknown>[] = [];
      if (declared?.sampling !== undefined) {
        asks.push(
          context.sample(
            {
              messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
              maxTokens: 20,
            },
            { inputKey: "sampling_input" },
          ),
        );
      }
      if (declared?.elicitation !== undefined) {
        asks.push(context.elicit(ASK_NAME, { inputKey: "elicitation_input" }));
      }
      await Promise.all(asks);
      return text(`answered ${asks.length} input request(s)`);
    },
  );
}

/** The prompt of the MRTR `non-tool-request` scenario: `prompts/get` asks for context first. */
export function registerInputRequiredPrompt(server: Server): void {
  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "MRTR: asks what context the prompt should use" },
    async (_args, context) => {
      const answer = await context.elicit(
        askFor("What context should the prompt use?", "context", "string"),
        { inputKey: "user_context" },
      );
      const value = String(answer.content?.context ?? "none");
      return {
        messages: [{ role: "user", content: { type: "text", text: `Use this context: ${value}` } }],
      };
    },
  );
}
