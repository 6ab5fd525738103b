import type { v2025_11_25 } from "@patchbay/mcp-types";
import type { CompileJsonSchema } from "./input-schema.js";
import type { PromptEntry } from "./prompt.js";
import type { Registry } from "./registry.js";
import type { ResourceEntry } from "./resource.js";
import type { ResourceTemplateEntry } from "./resource-template-entry.js";
import type { TaskStore } from "./tasks/task-store.js";
import type { ToolEntry } from "./tool.js";

/** What a session needs from the server definition it serves (internal). */
export interface SessionHost {
  readonly serverInfo: v2025_11_25.Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  /** Every revision served, of both eras (`ServerOptions.protocolVersions`). */
  readonly protocolVersions: readonly string[];
  readonly tools: Registry<ToolEntry>;
  readonly resources: Registry<ResourceEntry>;
  readonly resourceTemplates: Registry<ResourceTemplateEntry>;
  readonly prompts: Registry<PromptEntry>;
  /** The tasks of both eras (2025-11-25 sessions and the modern extension) share this store. */
  readonly tasks: TaskStore;
  /** Whether some registered tool supports tasks (`taskSupport`). */
  hasTaskTools(): boolean;
  /** Compiles plain JSON Schemas (tool schemas, elicitation requests) with the server's validator. */
  readonly compileJsonSchema: CompileJsonSchema;
  /** The capabilities to declare to a client initializing now. */
  capabilities(): v2025_11_25.ServerCapabilities;
  /** Throws the error for a request that arrived before `initialize`. */
  refuseUninitialized(method: string): never;
}
