/** `agent-lsp mcp add/remove` edit one server's table and keep the rest of the file as written. */
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { addServer, removeServer } from "../../../server/src/cli/mcp-config-file.js";

const FILE = `# my settings
model = "anthropic/claude-sonnet-4-6"   # the default

[mcp_servers.keep]
command = "keep"

# the db server, for work
[mcp_servers.db]
command = "npx"
args = ["-y", "db"]

[mcp_servers.db.tools.query]
policy_class = "read_only"

[retry]
max_retries = 2 # fewer
`;

describe("mcp add", () => {
  it("appends the table, keeping comments and the rest", () => {
    const out = addServer(FILE, "github", { url: "https://api.example.com/mcp" });
    expect(out.startsWith(FILE)).toBe(true);
    expect(out.slice(FILE.length)).toBe('\n[mcp_servers.github]\nurl = "https://api.example.com/mcp"\n');
  });

  it("writes a local server's command, arguments and environment (inline, so later tables stay the server's own)", () => {
    const out = addServer("", "fs", { command: "npx", args: ["-y", "@x/fs server", "--root", "."], env: { TOKEN: 'a "b"', "odd key": "1" } });
    expect(out).toContain('env = { TOKEN = "a \\"b\\"", "odd key" = "1" }');
    expect(parse(out).mcp_servers).toEqual({ fs: { command: "npx", args: ["-y", "@x/fs server", "--root", "."], env: { TOKEN: 'a "b"', "odd key": "1" } } });
  });

  it("refuses a name that is there, or cannot be one", () => {
    expect(() => addServer(FILE, "db", { command: "x" })).toThrow('an MCP server "db" is already configured there; remove it first (agent-lsp mcp remove db).');
    expect(() => addServer(FILE, "my.server", { command: "x" })).toThrow('"my.server" cannot be a server name');
  });
});

describe("mcp remove", () => {
  it("removes the server's tables and nothing else", () => {
    const out = removeServer(FILE, "db")!;
    expect(out).toBe(`# my settings
model = "anthropic/claude-sonnet-4-6"   # the default

[mcp_servers.keep]
command = "keep"

# the db server, for work
[retry]
max_retries = 2 # fewer
`);
  });

  it("removes an inline table and dotted keys", () => {
    const inline = `[mcp_servers]\nx = { command = "x" }\ny = { command = "y" }\n\n[other]\na = 1\nmcp_servers.y.args = ["no"]\n`;
    expect(parse(removeServer(inline, "x")!)).toEqual({ mcp_servers: { y: { command: "y" } }, other: { a: 1, mcp_servers: { y: { args: ["no"] } } } });
    const dotted = `model = "m"\nmcp_servers.z.command = "z"\nmcp_servers.z.args = ["a"]\nmcp_servers.w.command = "w"\n`;
    expect(removeServer(dotted, "z")).toBe(`model = "m"\nmcp_servers.w.command = "w"\n`);
  });

  it("says so when the server is not there", () => {
    expect(removeServer(FILE, "nope")).toBeUndefined();
    expect(removeServer("", "nope")).toBeUndefined();
  });
});
