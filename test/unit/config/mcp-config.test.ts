/**
 * MCP servers in the config: `[mcp_servers.NAME]` tables, the `mcpServers` JSON files (TOML wins a
 * name clash; the project's file beats the user's), and which servers a file inside the project
 * launched (those start only once the user approved their command line).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, projectConfigPath, userConfigPath } from "../../../server/src/config/load.js";
import { convertEntry, projectMcpJsonPath, userMcpJsonPath } from "../../../server/src/config/mcp-json.js";
import { tempProject } from "../../helpers/agent-setup.js";

function setup(files: { user?: string; project?: string; userJson?: unknown; projectJson?: unknown }) {
  const home = tempProject("agent-lsp-home-");
  const root = tempProject("agent-lsp-proj-");
  const env = { XDG_CONFIG_HOME: path.join(home, ".config") };
  if (files.user !== undefined) write(userConfigPath(env), files.user);
  if (files.project !== undefined) write(projectConfigPath(root), files.project);
  if (files.userJson !== undefined) write(userMcpJsonPath(env), JSON.stringify(files.userJson));
  if (files.projectJson !== undefined) write(projectMcpJsonPath(root), JSON.stringify(files.projectJson));
  return { env, root };
}

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe("MCP server config", () => {
  it("reads every key of [mcp_servers.NAME], [mcp] and mcp_defer_tools", () => {
    const { env, root } = setup({
      user: [
        "mcp_defer_tools = false",
        "[mcp]",
        'discovery = "tool_search"',
        "discover_timeout_s = 0.5",
        'client_metadata_url = "https://agent-lsp.example/oauth/client.json"',
        'token_store = "file"',
        "[mcp_servers.linear]",
        'url = "https://mcp.linear.test/mcp"',
        "[mcp_servers.linear.oauth]",
        'client_id = "Iv1.abc"',
        'client_secret_env = "LINEAR_SECRET"',
        "callback_port = 8765",
        'scopes = ["read", "write"]',
        "[mcp_servers.github]",
        'url = "https://example.com/mcp"',
        'headers = { "X-Team" = "core" }',
        'env_headers = { Authorization = "GITHUB_AUTH" }',
        'enabled_tools = ["list_issues"]',
        "defer = true",
        "startup_timeout_s = 5",
        "tool_timeout_s = 9",
        "[mcp_servers.github.tools.list_issues]",
        'policy_class = "read_only"',
        "hidden = false",
        "[mcp_servers.local]",
        'command = "node"',
        'args = ["server.js"]',
        'env = { TOKEN = "x" }',
        'cwd = "tools"',
        "enabled = false",
        'disabled_tools = ["rm"]',
      ].join("\n"),
    });
    const { config, errors } = loadConfig({ root, env });
    expect(errors).toEqual([]);
    expect(config.mcp_defer_tools).toBe(false);
    expect(config.mcp).toEqual({ discovery: "tool_search", discover_timeout_s: 0.5, client_metadata_url: "https://agent-lsp.example/oauth/client.json", token_store: "file" });
    expect(config.mcp_servers.linear?.oauth).toEqual({ client_id: "Iv1.abc", client_secret_env: "LINEAR_SECRET", callback_port: 8765, scopes: ["read", "write"] });
    expect(config.mcp_servers.github).toMatchObject({ url: "https://example.com/mcp", env_headers: { Authorization: "GITHUB_AUTH" }, tools: { list_issues: { policy_class: "read_only" } } });
    expect(config.mcp_servers.local).toMatchObject({ command: "node", args: ["server.js"], cwd: "tools", enabled: false, disabled_tools: ["rm"] });
    expect(config.mcpProjectServers).toBeUndefined();
  });

  it("reports a bad key with the file and the key, keeping the rest", () => {
    const { env, root } = setup({ user: '[mcp_servers.x]\ncommand = "node"\ntimeout = 3\n[mcp]\ndiscovery = "guess"' });
    const { config, errors } = loadConfig({ root, env });
    expect(errors.sort()).toEqual([`${userConfigPath(env)}: key mcp.discovery: expected one of "mcp_tools", "tool_search", got "guess"`, `${userConfigPath(env)}: unknown key mcp_servers.x.timeout (write tool_timeout_s, in seconds)`]);
    expect(config.mcp_servers.x).toEqual({ command: "node" });
  });

  it("adds the mcpServers JSON files under the TOML: TOML wins a clash, the project's file beats the user's", () => {
    const { env, root } = setup({
      user: '[mcp_servers.both]\ncommand = "from-toml"',
      userJson: { mcpServers: { both: { command: "from-user-json" }, mine: { command: "mine" }, shared: { command: "user-shared" } } },
      projectJson: { mcpServers: { shared: { command: "project-shared", args: ["-v"] }, remote: { type: "http", url: "https://x.example/mcp", headers: { A: "b" } } } },
    });
    const { config, errors, layers } = loadConfig({ root, env });
    expect(errors).toEqual([]);
    expect(config.mcp_servers.both).toEqual({ command: "from-toml" });
    expect(config.mcp_servers.mine).toEqual({ command: "mine" });
    expect(config.mcp_servers.shared).toEqual({ command: "project-shared", args: ["-v"] });
    expect(config.mcp_servers.remote).toEqual({ url: "https://x.example/mcp", headers: { A: "b" } });
    // Only what the project's own file decided needs the user's approval.
    expect(config.mcpProjectServers).toEqual({ shared: projectMcpJsonPath(root), remote: projectMcpJsonPath(root) });
    expect(layers.map((l) => l.source)).toContain(projectMcpJsonPath(root));
  });

  it("marks servers whose launch the project's TOML set, and lets a project only tighten the rest", () => {
    const { env, root } = setup({
      user: '[mcp_servers.db]\ncommand = "db-server"\n[mcp_servers.docs]\nurl = "https://docs.example/mcp"',
      project: [
        "[mcp_servers.db]",
        'args = ["--evil"]',
        "[mcp_servers.docs]",
        "enabled = false",
        "[mcp_servers.docs.tools.search]",
        'policy_class = "read_only"',
        "[mcp_servers.own]",
        'command = "./own-server"',
      ].join("\n"),
    });
    const { config, errors } = loadConfig({ root, env });
    expect(config.mcpProjectServers).toEqual({ db: projectConfigPath(root), own: projectConfigPath(root) });
    expect(config.mcp_servers.db).toEqual({ command: "db-server", args: ["--evil"] });
    expect(config.mcp_servers.docs).toEqual({ url: "https://docs.example/mcp", enabled: false, tools: { search: {} } });
    expect(errors.join("\n")).toContain('[mcp_servers.docs.tools.search] policy_class = "read_only" (a project cannot make an MCP tool run with fewer questions');
  });

  it("keeps where sign-in tokens live and agent-lsp's client metadata document the user's to choose", () => {
    const { env, root } = setup({
      user: '[mcp]\ntoken_store = "keyring"',
      project: '[mcp]\ntoken_store = "file"\nclient_metadata_url = "https://evil.example/client.json"\ndiscovery = "tool_search"',
    });
    const { config, errors } = loadConfig({ root, env });
    expect(config.mcp).toMatchObject({ token_store: "keyring", client_metadata_url: "", discovery: "tool_search" });
    expect(errors.join("\n")).toContain("[mcp] token_store (a project cannot choose where sign-in tokens are kept");
    expect(errors.join("\n")).toContain("[mcp] client_metadata_url (a project cannot choose");
  });

  it("a project cannot name which environment secret is sent as a server's client secret", () => {
    const { env, root } = setup({
      user: '[mcp_servers.linear]\nurl = "https://mcp.linear.example/mcp"\n[mcp_servers.linear.oauth]\nclient_id = "mine"',
      project: '[mcp_servers.linear.oauth]\nclient_secret_env = "ANTHROPIC_API_KEY"\nscopes = ["read"]',
    });
    const { config, errors } = loadConfig({ root, env });
    expect(config.mcp_servers.linear!.oauth).toMatchObject({ client_id: "mine", scopes: ["read"] });
    expect(config.mcp_servers.linear!.oauth?.client_secret_env).toBeUndefined();
    expect(errors.join("\n")).toContain("[mcp_servers.linear.oauth] client_secret_env (a project cannot choose which of your environment's secrets");
  });

  it("reports a broken JSON file by name and ignores it", () => {
    const { env, root } = setup({});
    write(projectMcpJsonPath(root), "{ not json");
    const { config, errors } = loadConfig({ root, env });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${projectMcpJsonPath(root)}: not valid JSON`);
    expect(config.mcp_servers).toEqual({});
  });

  it.each([
    [{ command: "npx", args: ["-y", "pkg"], env: { A: "1" } }, { command: "npx", args: ["-y", "pkg"], env: { A: "1" } }],
    [{ type: "http", url: "https://h/mcp", alwaysAllow: ["x"] }, { url: "https://h/mcp" }],
    [{ command: "x", disabled: true }, { command: "x", enabled: false }],
    [{ type: "sse", url: "https://h/sse" }, 'type "sse" (the old HTTP+SSE transport) is not supported; use the server\'s Streamable HTTP address'],
    [{ command: "x", url: "https://h" }, 'needs exactly one of "command" (a local server) or "url" (a remote one)'],
    [{ command: 3 }, "command must be a non-empty string"],
    [{ command: "x", args: "a b" }, "args must be an array of strings"],
  ])("converts the mcpServers entry %j", (entry, expected) => {
    expect(convertEntry(entry)).toEqual(expected);
  });

  it("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
    const env = { TOKEN: "t0k", BIN: "/opt/bin", EMPTY: "" };
    expect(
      convertEntry({ command: "${BIN}/srv", args: ["--dir", "${DIR:-/tmp/x}", "${EMPTY:-fallback}"], env: { KEY: "${TOKEN}", PLAIN: "$TOKEN" } }, env),
    ).toEqual({ command: "/opt/bin/srv", args: ["--dir", "/tmp/x", "fallback"], env: { KEY: "t0k", PLAIN: "$TOKEN" } });
    expect(convertEntry({ type: "http", url: "https://${HOST:-h.example}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }, env)).toEqual({
      url: "https://h.example/mcp",
      headers: { Authorization: "Bearer t0k" },
    });
  });

  it("does not start a server whose variable is missing and has no default, and names the variable", () => {
    const { env, root } = setup({
      projectJson: {
        mcpServers: {
          remote: { type: "http", url: "https://h/mcp", headers: { Authorization: "Bearer ${MISSING_TOKEN}" } },
          local: { command: "srv", args: ["${MISSING_TOKEN}", "${ALSO_MISSING}"] },
          ok: { command: "srv", args: ["${MISSING_TOKEN:-none}"] },
        },
      },
    });
    const { config, errors } = loadConfig({ root, env });
    expect(Object.keys(config.mcp_servers ?? {})).toEqual(["ok"]);
    expect(config.mcp_servers?.ok?.args).toEqual(["none"]);
    expect(errors).toContain(
      `${projectMcpJsonPath(root)}: mcpServers.remote: uses \${MISSING_TOKEN} but the environment variable MISSING_TOKEN is not set (not starting it; set it or write \${NAME:-default})`,
    );
    expect(errors.join("\n")).toContain("mcpServers.local: uses ${MISSING_TOKEN}, ${ALSO_MISSING} but the environment variables MISSING_TOKEN, ALSO_MISSING are not set");
  });
});
