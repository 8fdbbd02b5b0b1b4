/** The built binary's terminal front ends: run, tool, doctor, --version, --help. */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { sandboxMissing } from "../helpers/sandbox.js";
import { BINARY } from "../helpers/spawn-server.js";
import { waitFor } from "../helpers/wait.js";

const exec = promisify(execFile);
let fake: FakeProvider;
let root: string;
let home: string;

beforeAll(async () => {
  fake = await startFakeProvider();
  root = tempProject();
  home = tempProject("agent-lsp-home-");
});
afterAll(async () => {
  await fake.close();
});

/** Runs the binary in the project with the fake as Anthropic; never throws on exit status. `input` is piped to stdin. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  try {
    const running = exec(process.execPath, [BINARY, ...args], {
      cwd: root,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-cli-test-0000", ...env },
    });
    if (input !== undefined) running.child.stdin!.end(input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("agent-lsp CLI", () => {
  it("prints its version and help", async () => {
    expect((await cli(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await cli(["--help"]);
    for (const word of ["--stdio", "run", "tool NAME --input JSON", "doctor"]) expect(help.stdout).toContain(word);
  });

  it("run streams the answer to stdout and exits 0", async () => {
    fake.enqueue({ text: "Hello from a headless turn." });
    const res = await cli(["run", "say hello"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Hello from a headless turn.\n");
    expect(res.stderr).toContain("tokens:");
  });

  it("run --json writes one JSON line per update and a final result", async () => {
    fake.enqueue({ text: "json answer" });
    const res = await cli(["run", "hi", "--json"]);
    const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.update?.kind === "text").map((l) => l.update.text).join("")).toBe("json answer");
    expect(lines.at(-1)).toMatchObject({ schemaVersion: 1, type: "result", stopReason: "end_turn", text: "json answer" });
  });

  it("run exits 1 and says why when the provider fails", async () => {
    fake.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
    const res = await cli(["run", "hi"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("invalid x-api-key");
  });

  it("in ask mode without a terminal refuses gated actions unless --allow-untrusted-tools", async () => {
    const write = { toolCalls: [{ name: "write_file", input: { path: "made.txt", content: "hi\n" } }] };
    fake.enqueue(write, { text: "could not" });
    const refused = await cli(["run", "make a file", "--mode", "ask"]);
    expect(refused.code).toBe(3);
    expect(existsSync(path.join(root, "made.txt"))).toBe(false);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages.at(-1))).toContain("--allow-untrusted-tools");
    fake.enqueue(write, { text: "made it" });
    const allowed = await cli(["run", "make a file", "--mode", "ask", "--allow-untrusted-tools"]);
    expect(allowed.code).toBe(0);
    expect(readFileSync(path.join(root, "made.txt"), "utf8")).toBe("hi\n");
  });

  it("tool runs one tool through the gate and prints its result", async () => {
    writeFileSync(path.join(root, "hello.txt"), "line one\nline two\n");
    const ok = await cli(["tool", "read_file", "--input", JSON.stringify({ path: "hello.txt" })]);
    expect(ok.code).toBe(0);
    const result = JSON.parse(ok.stdout);
    expect(result.isError).toBe(false);
    expect(result.content[0].text).toContain("line two");
    const denied = await cli(["tool", "write_file", "--input", JSON.stringify({ path: "x.txt", content: "x" }), "--mode", "read_only"]);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout).isError).toBe(true);
    expect(existsSync(path.join(root, "x.txt"))).toBe(false);
  });

  it("rejects a bad --mode with a clear message and exit status 2", async () => {
    const res = await cli(["run", "hi", "--mode", "yolo"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--mode must be one of read_only, plan, ask, auto, full_access");
  });

  it("tool rejects input that is not JSON (a usage error, 2), and an unknown tool (1)", async () => {
    const bad = await cli(["tool", "read_file", "--input", "{nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--input is not valid JSON");
    const unknown = await cli(["tool", "no_such_tool", "--input", "{}"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining('no tool "no_such_tool"') }] });
  });

  it("an unknown option is a usage error naming the closest one, and no model is called", async () => {
    const before = fake.requests.length;
    const res = await cli(["run", "do it", "--mdoe", "full_access"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("unknown option --mdoe (did you mean --mode?)");
    expect(res.stderr).toContain("See agent-lsp run --help.");
    expect(fake.requests.length).toBe(before);
    const tool = await cli(["tool", "read_file", "--inptu", "{}"]);
    expect(tool.code).toBe(2);
    expect(tool.stderr).toContain("unknown option --inptu (did you mean --input?)");
    const list = await cli(["mcp", "add", "x", "--urll", "https://example.test/mcp"]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain("unknown option --urll (did you mean --url?)");
    const doctor = await cli(["doctor", "--lvie"]);
    expect(doctor.code).toBe(2);
    expect(doctor.stderr).toContain("did you mean --live?");
  });

  it("run takes the prompt from stdin with -, and -- ends the options", async () => {
    fake.enqueue({ text: "read it" });
    const piped = await cli(["run", "-"], {}, "summarise the piped text\n");
    expect(piped.code).toBe(0);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages[0])).toContain("summarise the piped text");
    fake.enqueue({ text: "literal" });
    const dashed = await cli(["run", "--mode", "read_only", "--", "--json is a word here"]);
    expect(dashed.code).toBe(0);
    expect(dashed.stdout).toBe("literal\n");
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages[0])).toContain("--json is a word here");
  });

  it("run cancelled by Ctrl-C (SIGINT) stops the turn and exits 130", async () => {
    fake.enqueue({ text: "partial answer that never ends", hang: true });
    const child = spawn(process.execPath, [BINARY, "run", "talk forever"], {
      cwd: root,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-cli-test-0000" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await waitFor(() => stdout.length > 0, 30_000);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("stopped: cancelled");
  }, 60_000);

  it("every command answers --help with its usage on stdout and exit 0", async () => {
    for (const args of [["run", "--help"], ["tool", "--help"], ["doctor", "--help"], ["mcp", "--help"], ["mcp", "list", "--help"], ["mcp", "add", "-h"], ["setup", "--help"]]) {
      const res = await cli(args);
      expect(res.code, args.join(" ")).toBe(0);
      expect(res.stdout, args.join(" ")).toMatch(/Usage/);
    }
    expect((await cli(["run", "--help"])).stdout).toContain("--allow-untrusted-tools");
  });

  it("doctor lists config files, providers and tools, and warns about a world-readable key", async () => {
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp", "config.toml"), '[providers.anthropic]\napi_key = "sk-ant-in-a-file-000"\n', { mode: 0o644 });
    const res = await cli(["doctor"], { ANTHROPIC_API_KEY: "" });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`found   ${path.join(root, ".agent-lsp", "config.toml")}`);
    expect(res.stdout).toMatch(/ok\s+anthropic: key set/);
    expect(res.stdout).toContain("holds an API key and is readable by other users");
    expect(res.stdout).not.toContain("sk-ant-in-a-file-000");
  });

  it("doctor says whether commands run in the sandbox here, and fails when it is required and cannot run", async () => {
    const works = sandboxMissing() === undefined;
    const res = await cli(["doctor"]);
    expect(res.stdout).toMatch(works ? /Sandbox:\n {2}ok {6}bwrap \(\S+\) works here: commands run sandboxed \(\[exec\] sandbox = "auto"\)\n {10}network: none/ : /Sandbox:\n {2}missing /);
    const withoutBwrap = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !existsSync(path.join(dir, "bwrap"))).join(path.delimiter);
    mkdirSync(path.join(home, ".config", "agent-lsp"), { recursive: true });
    writeFileSync(path.join(home, ".config", "agent-lsp", "config.toml"), '[exec]\nsandbox = "required"\n');
    try {
      const required = await cli(["doctor"], { PATH: withoutBwrap });
      expect(required.stdout).toContain('\nERROR [exec] sandbox = "required" and the sandbox cannot run here (bwrap is not installed (install the bubblewrap package)): every command will be refused');
      expect(required.code).toBe(1);
    } finally {
      rmSync(path.join(home, ".config", "agent-lsp"), { recursive: true, force: true });
    }
  });

  it("doctor says the language tools come only with an editor that serves them, and Helix and plain clients get none", async () => {
    const res = await cli(["doctor"]);
    expect(res.stdout).toContain("Language tools:\n  editor  find_definition, find_references, rename_symbol, document_symbols, hover, get_diagnostics: offered only when the editor serves agent/languageService");
    expect(res.stdout).toContain("Helix and plain LSP clients: none");
    // The command line has no editor: none of them is in its tool list.
    expect(res.stdout).not.toMatch(/^ {2}find_references +read_only$/m);
  });

  it("doctor says which outside tools are offered and what to set for the others", async () => {
    mkdirSync(path.join(home, ".config", "agent-lsp"), { recursive: true });
    writeFileSync(path.join(home, ".config", "agent-lsp", "config.toml"), '[web]\nsearch_backend = "exa"\n[browser]\nexecutable = "/nonexistent/chromium"\n');
    try {
      const res = await cli(["doctor"], { EXA_API_KEY: "", DISPLAY: "" });
      expect(res.stdout).toMatch(/missing web_search: exa needs its API key in the environment variable EXA_API_KEY/);
      expect(res.stdout).toMatch(/missing browser_action: no Chromium found; install chromium or set \[browser\] executable/);
      expect(res.stdout).toMatch(/off\s+computer: set \[tools\] computer = true/);
      expect(res.stdout).toMatch(/^ {2}web_fetch +network$/m);
      expect(res.stdout).not.toMatch(/^ {2}web_search +network$/m);
    } finally {
      rmSync(path.join(home, ".config", "agent-lsp"), { recursive: true, force: true });
    }
  });
});
