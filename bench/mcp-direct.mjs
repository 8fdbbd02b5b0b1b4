// The direct side of bench/mcp-start.ts, as a process of its own like `agent-lsp mcp list`: loads
// the MCP SDK's client, spawns the server given as argv (command, args...), waits for initialize
// and for its tools, resources, templates and prompts, then prints the milliseconds of each step.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [command, ...args] = process.argv.slice(2);
const t0 = performance.now();
const client = new Client({ name: "bench", version: "0" });
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const init = performance.now() - t0;
await Promise.all([client.listTools(), client.listResources(), client.listResourceTemplates(), client.listPrompts()]);
const listed = performance.now() - t0;
await client.close();
console.log(JSON.stringify({ init, listed }));
