/**
 * Entry point: picks a front end from argv. Each front end is imported only when chosen, so
 * `agent-lsp --stdio` loads the LSP server and nothing else.
 */
import { VERSION } from "./version.js";
const HELP = `agent-lsp ${VERSION}: an AI coding agent that runs inside your editor as a language server.

Usage:
  agent-lsp [--stdio]                 Run the language server on stdin/stdout (the default when
                                      stdin is not a terminal).
  agent-lsp --acp                     Serve the Agent Client Protocol on stdin/stdout (Zed,
                                      CodeCompanion, avante, agent-shell: docs/acp.md).
  agent-lsp run "PROMPT" [options]    One headless agent turn in the current directory
                                      (PROMPT - or piped in: read from stdin).
      --mode read_only|plan|ask|auto|full_access
      --model NAME/model-id
      --output-format text|json|stream-json
                                      The answer as text, one JSON object at the end, or JSON
                                      lines (--json); docs/headless.md.
      --continue | --resume ID        Carry on the most recent session, or session ID.
      --allow-untrusted-tools         Without a terminal, allow gated actions instead of refusing.
  agent-lsp tool NAME --input JSON [--mode M]
                                      Run one tool through the policy gate; prints
                                      {"isError": bool, "content": [...]}; exit 1 on error.
  agent-lsp doctor [--live]           Config files, provider credentials, MCP servers, tools;
                                      --live also calls the model once and checks local
                                      servers listen.
  agent-lsp mcp list [--json]         Start the configured MCP servers and say how each one is.
  agent-lsp mcp add NAME --url URL [--header "K: V"]... [--project]
                 [--client-id ID] [--client-secret-env VAR] [--callback-port PORT] [--scope S]...
  agent-lsp mcp add NAME [--env K=V]... [--project] -- COMMAND ARGS...
                                      Add an MCP server to your config (or the project's).
  agent-lsp mcp add-json NAME JSON [--project]
                                      Add one mcpServers entry as Claude Code or Gemini CLI
                                      write it (to the mcpServers JSON file, \${VAR} kept).
  agent-lsp mcp get NAME              A server's merged settings and the files that set them.
  agent-lsp mcp remove NAME [--project]
                                      Remove it (from the TOML, else the mcpServers JSON file).
  agent-lsp mcp login NAME [--paste]  Sign in to a remote server (OAuth) in the browser; --paste
                                      takes the address the browser ended on (remote shells).
  agent-lsp mcp logout NAME           Delete a remote server's stored sign-in tokens.
  agent-lsp setup helix [--write] [--hx PATH]
                                      Print the Helix languages.toml snippet, or merge it into
                                      Helix's languages.toml (a backup is written first); each
                                      language keeps the default servers of your Helix (hx).
  agent-lsp --version | --help
  agent-lsp COMMAND --help            The options of one command.

Exit status: 0 done, 1 failed, 2 usage error (an unknown option, a missing argument); run also
exits 3 when an action needed an approval there was no terminal to give, 130 when cancelled.
`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "--stdio" || (first === undefined && !process.stdin.isTTY)) {
    const { runStdioServer } = await import("./cli/stdio.js");
    await runStdioServer();
    return -1; // keeps running until the client says exit
  }
  if (first === "--acp") {
    const { runAcpServer } = await import("./cli/acp.js");
    await runAcpServer();
    return -1; // exits when the client closes the connection
  }
  if (first === "run") return (await import("./cli/run.js")).runCommand(rest);
  if (first === "tool") return (await import("./cli/tool.js")).toolCommand(rest);
  if (first === "mcp") return (await import("./cli/mcp.js")).mcpCommand(rest);
  if (first === "doctor") return (await import("./cli/doctor.js")).doctorCommand(rest);
  if (first === "setup") return (await import("./cli/setup.js")).setupCommand(rest);
  process.stderr.write(first === undefined ? HELP : `agent-lsp: unknown command "${first}"\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    // A command line that does not fit is exit status 2 and points at the command's --help.
    const usage = err instanceof Error && err.name === "UsageError";
    const command = ["run", "tool", "mcp", "doctor", "setup"].includes(process.argv[2] ?? "") ? ` ${process.argv[2]}` : "";
    process.stderr.write(`agent-lsp: ${message}\n${usage ? `See agent-lsp${command} --help.\n` : ""}`);
    process.exitCode = usage ? 2 : 1;
  },
);
