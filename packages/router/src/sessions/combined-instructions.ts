/** One backend's part of the gateway's `instructions`. */
export interface BackendInstructions {
  /** The backend's key in `mcpServers`. */
  readonly name: string;
  /** What its tool and prompt names start with for the client (`github__`), or "" when unprefixed. */
  readonly prefix: string;
  /** The `instructions` the backend gave in `initialize`. */
  readonly instructions: string;
}

/**
 * The `instructions` the gateway gives a client in `initialize`: each running backend's own text,
 * named after the backend and the prefix its tools carry (a backend's text names its tools as it
 * knows them, not as the client sees them); `undefined` when no backend gave any.
 */
export function combineInstructions(backends: readonly BackendInstructions[]): string | undefined {
  const parts = backends
    .filter((backend) => backend.instructions.trim() !== "")
    .map((backend) => {
      const label =
        backend.prefix === ""
          ? backend.name
          : `${backend.name} (tools and prompts named ${backend.prefix}<name>)`;
      return `${label}: ${backend.instructions.trim()}`;
    });
  if (parts.length === 0) return undefined;
  return ["Instructions from the MCP servers behind this gateway.", ...parts].join("\n\n");
}
