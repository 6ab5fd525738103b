/**
 * The MCP shapes this package reads and writes, as the 2025-11-25 schema spells them. They are
 * deliberately open (extra fields pass through) so that content of any revision crosses untouched.
 */

/** A JSON object. */
export type JSONObject = { [key: string]: unknown };

/** `_meta` on requests, results and definitions. */
export type Meta = JSONObject;

/** Name and version of a client or server (`clientInfo`, `serverInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

/** An icon for display (2025-11-25): `src` is an https or `data:` URI. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
  [key: string]: unknown;
}

/** Hints about a tool's behaviour (2025-03-26); untrusted unless the server is trusted. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** Audience, priority and modification time of a piece of content. */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
  [key: string]: unknown;
}

/** A tool as `tools/list` describes it. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONObject & { type: "object" };
  outputSchema?: JSONObject & { type: "object" };
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** Text or binary contents of a resource. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Meta; [key: string]: unknown }
  | { uri: string; mimeType?: string; blob: string; _meta?: Meta; [key: string]: unknown };

/** One block of content in a tool result, prompt message or sampling message. */
export type ContentBlock =
  | { type: "text"; text: string; annotations?: Annotations; _meta?: Meta }
  | { type: "image"; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
  | { type: "audio"; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta }
  | {
      type: "resource_link";
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
      icons?: Icon[];
      annotations?: Annotations;
      _meta?: Meta;
    }
  | { type: "resource"; resource: ResourceContents; annotations?: Annotations; _meta?: Meta };

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JSONObject;
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A resource as `resources/list` describes it. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** A resource template as `resources/templates/list` describes it. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `resources/read`. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** An argument a prompt accepts. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

/** A prompt as `prompts/list` describes it. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
  [key: string]: unknown;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** The `completion` member of a `completion/complete` result. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
  [key: string]: unknown;
}

/** What a server can do, declared in the `initialize` result. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean; [key: string]: unknown };
  resources?: { subscribe?: boolean; listChanged?: boolean; [key: string]: unknown };
  prompts?: { listChanged?: boolean; [key: string]: unknown };
  logging?: JSONObject;
  completions?: JSONObject;
  experimental?: JSONObject;
  [key: string]: unknown;
}

/** What a client can do, declared in the `initialize` request. */
export interface ClientCapabilities {
  roots?: { listChanged?: boolean; [key: string]: unknown };
  sampling?: { context?: JSONObject; tools?: JSONObject; [key: string]: unknown };
  elicitation?: { form?: JSONObject; url?: JSONObject; [key: string]: unknown };
  experimental?: JSONObject;
  [key: string]: unknown;
}

/** The result of `initialize`. */
export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  [key: string]: unknown;
}

/** A message in a sampling request. */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: ContentBlock | ContentBlock[] | JSONObject;
  [key: string]: unknown;
}

/** Params of `sampling/createMessage`. */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JSONObject;
  metadata?: JSONObject;
  tools?: JSONObject[];
  toolChoice?: JSONObject;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `sampling/createMessage`. */
export interface CreateMessageResult {
  role: "user" | "assistant";
  content: ContentBlock | ContentBlock[] | JSONObject;
  model: string;
  stopReason?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** Params of `elicitation/create`: form mode (default) or URL mode (2025-11-25). */
export type ElicitRequestParams =
  | {
      mode?: "form";
      message: string;
      requestedSchema: JSONObject & { type: "object" };
      _meta?: Meta;
      [key: string]: unknown;
    }
  | {
      mode: "url";
      message: string;
      url: string;
      elicitationId: string;
      _meta?: Meta;
      [key: string]: unknown;
    };

/** The result of `elicitation/create`. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: Meta;
  [key: string]: unknown;
}

/** A root the client exposes. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
  [key: string]: unknown;
}

/** The result of `roots/list`. */
export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
  [key: string]: unknown;
}
