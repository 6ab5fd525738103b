/** How one MCP client is pointed at an endpoint: where it goes and what to paste or run there. */
export interface ClientSnippet {
  /** The client, as people name it. */
  readonly client: string;
  /** The file to paste into, or the shell to run in. */
  readonly where: string;
  readonly text: string;
}

/** What the snippets connect to. */
export interface ConnectGuideOptions {
  /** The Streamable HTTP endpoint, `http://host:port/mcp` (or a profile's). */
  readonly url: URL;
  /** The endpoint asks for `Authorization: Bearer <token>` (static tokens). */
  readonly bearer: boolean;
  /** The server's name in the clients' configs. Default `patchbay`. */
  readonly name?: string;
}

const TOKEN = "<your token>";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * The config or command that connects each common MCP client to `url`: Claude Code, Cursor, VS Code,
 * Claude Desktop (which starts stdio servers only, so through `mcp-remote`) and the MCP Inspector.
 * With `bearer`, each carries the `Authorization` header with a `<your token>` placeholder.
 */
export function connectSnippets(options: ConnectGuideOptions): readonly ClientSnippet[] {
  const name = options.name ?? "patchbay";
  const url = options.url.href;
  const headers = options.bearer ? { headers: { Authorization: `Bearer ${TOKEN}` } } : {};
  const headerFlag = options.bearer ? ` --header "Authorization: Bearer ${TOKEN}"` : "";
  // mcp-remote takes the header as an argument; the token goes in env so no space is in an argument
  // (mcp-remote replaces `${AUTH_HEADER}` with that variable of its environment).
  const remote = options.bearer
    ? {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote's own placeholder
        args: ["mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
        env: { AUTH_HEADER: `Bearer ${TOKEN}` },
      }
    : { args: ["mcp-remote", url] };
  return [
    {
      client: "Claude Code",
      where: "shell",
      text: `claude mcp add --transport http ${name} ${url}${headerFlag}`,
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json",
      text: json({ mcpServers: { [name]: { url, ...headers } } }),
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json",
      text: json({ servers: { [name]: { type: "http", url, ...headers } } }),
    },
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json, through mcp-remote",
      text: json({ mcpServers: { [name]: { command: "npx", ...remote } } }),
    },
    {
      client: "MCP Inspector",
      where: "shell",
      text: `npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list${headerFlag}`,
    },
  ];
}
