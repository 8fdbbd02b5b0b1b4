/**
 * Config precedence (defaults < user file < project file < initializationOptions) and bad
 * config: every problem names the file, the key and the expected type; nothing crashes; a file
 * that stops parsing keeps its last good values.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, projectConfigPath, userConfigPath } from "../../../server/src/config/load.js";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";
import { tempProject } from "../../helpers/agent-setup.js";

function setup(user?: string, project?: string) {
  const home = tempProject("agent-lsp-home-");
  const root = tempProject("agent-lsp-proj-");
  const env = { XDG_CONFIG_HOME: path.join(home, ".config") };
  if (user !== undefined) write(userConfigPath(env), user);
  if (project !== undefined) write(projectConfigPath(root), project);
  return { env, root };
}

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe("config precedence", () => {
  it("uses the defaults when there is no config", () => {
    const { env, root } = setup();
    const { config, errors } = loadConfig({ root, env });
    expect(errors).toEqual([]);
    expect(config).toEqual(DEFAULT_CONFIG);
  });

  it.each([
    ["user file only", 'safety = "auto"', undefined, undefined, "auto"],
    ["project beats user", 'safety = "auto"', 'safety = "read_only"', undefined, "read_only"],
    ["initializationOptions beat both", 'safety = "auto"', 'safety = "read_only"', { safety: "full_access" }, "full_access"],
  ])("%s", (_name, user, project, init, expected) => {
    const { env, root } = setup(user, project);
    const { config, errors } = loadConfig({ root, env, initializationOptions: init });
    expect(errors).toEqual([]);
    expect(config.safety).toBe(expected);
  });

  it("merges tables key by key across layers", () => {
    const { env, root } = setup('[retry]\nmax_retries = 9\n[providers.lmstudio]\ntype = "openai-compatible"\nbase_url = "http://127.0.0.1:1234/v1"', "[retry]\ninitial_delay_ms = 7");
    const { config } = loadConfig({ root, env, initializationOptions: { providers: { lmstudio: { model: "qwen" } } } });
    expect(config.retry).toEqual({ ...DEFAULT_CONFIG.retry, max_retries: 9, initial_delay_ms: 7 });
    expect(config.providers.lmstudio).toEqual({ type: "openai-compatible", base_url: "http://127.0.0.1:1234/v1", model: "qwen" });
  });

  it('lets a project choose [editor] approvals = "chat_file" but not "message" (the diff would be hidden)', () => {
    const strict = setup(undefined, '[editor]\napprovals = "chat_file"');
    expect(loadConfig({ root: strict.root, env: strict.env }).config.editor.approvals).toBe("chat_file");
    const blind = setup(undefined, '[editor]\napprovals = "message"');
    const loaded = loadConfig({ root: blind.root, env: blind.env });
    expect(loaded.config.editor.approvals).toBe("auto");
    expect(loaded.errors.join("\n")).toMatch(/\[editor\] approvals = "message" \(a project cannot hide the diff/);
    const user = setup('[editor]\napprovals = "message"', '[editor]\napprovals = "message"');
    expect(loadConfig({ root: user.root, env: user.env }).config.editor.approvals).toBe("message");
  });

  it("remembers which layer wrote each provider's api_key, the last one winning", () => {
    const { env, root } = setup('[providers.anthropic]\napi_key = "sk-ant-user-file"', '[providers.openai]\napi_key = "sk-project-file"');
    const { config } = loadConfig({ root, env, initializationOptions: { providers: { anthropic: { api_key: "sk-ant-init" } } } });
    expect(config.keySources).toEqual({ anthropic: "initializationOptions", openai: projectConfigPath(root) });
  });

  it("takes fractions of a second for stream_idle_timeout_s", () => {
    const { env, root } = setup(undefined, "[retry]\nstream_idle_timeout_s = 0.3");
    const { config, errors } = loadConfig({ root, env });
    expect(errors).toEqual([]);
    expect(config.retry.stream_idle_timeout_s).toBe(0.3);
  });
});

describe("bad config", () => {
  it("names the file, key and expected type, and keeps the other keys", () => {
    const { env, root } = setup(undefined, 'safety = "read_only"\nmax_turns = "lots"\n[retry]\nmax_retries = -1');
    const { config, errors } = loadConfig({ root, env });
    const file = projectConfigPath(root);
    expect(errors).toContainEqual(`${file}: key max_turns: expected number, got string "lots"`);
    expect(errors.some((e) => e.startsWith(`${file}: key retry.max_retries:`))).toBe(true);
    expect(config.safety).toBe("read_only");
    expect(config.max_turns).toBe(DEFAULT_CONFIG.max_turns);
    expect(config.retry.max_retries).toBe(DEFAULT_CONFIG.retry.max_retries);
  });

  it("reports unknown keys and enum values", () => {
    const { env, root } = setup(undefined, 'safty = "auto"\nsafety = "yolo"');
    const { errors } = loadConfig({ root, env });
    expect(errors).toEqual(expect.arrayContaining([expect.stringContaining("unknown key safty"), expect.stringContaining('key safety: expected one of "read_only", "plan", "ask", "auto", "full_access", got "yolo"')]));
  });

  it("reports a file that is not TOML and keeps its last good values", () => {
    const { env, root } = setup(undefined, 'safety = "read_only"');
    expect(loadConfig({ root, env }).config.safety).toBe("read_only");
    write(projectConfigPath(root), 'model = "a/b"\nsafety = = broken [');
    const { config, errors } = loadConfig({ root, env });
    // FILE:LINE:COLUMN: as compilers write it, so the error names the place, not only the file.
    expect(errors[0]).toMatch(new RegExp(`^${projectConfigPath(root).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:10: not valid TOML: .*keeping its last good values`));
    expect(config.safety).toBe("read_only");
  });

  it("rejects initializationOptions that are not a table", () => {
    const { env, root } = setup();
    const { config, errors } = loadConfig({ root, env, initializationOptions: ["nope"] });
    expect(errors).toEqual(["initializationOptions: expected a table of settings, got array"]);
    expect(config).toEqual(DEFAULT_CONFIG);
  });
});
