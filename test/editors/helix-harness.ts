/**
 * Real Helix under tmux against the built server and the fake provider: a throwaway project,
 * HOME and Helix config (agent-lsp as a language server of a test language), `hx` started in a
 * detached tmux session of fixed size, and helpers that press keys and read the screen as a user
 * would. Helix's own log (`hx -v`) records every LSP message and agent-lsp's stderr, so a failing
 * wait can show what the server said.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { stringify } from "smol-toml";
import { describe, it } from "vitest";
import { fakeProviderOptions } from "../helpers/agent-setup.js";
import type { FakeProvider } from "../helpers/fake-provider/index.js";
import { probeEditor, type ProbedEditor } from "./editor-probe.js";
import { REPO, SERVER_BUNDLE } from "./nvim-harness.js";
import { DEFAULT_WAIT_MS, reversedText, TmuxPane, type WaitOptions } from "./tmux-pane.js";

const run = promisify(execFile);
/** Longer than one terminal read: keys sent after this gap are not glued to an Escape. */
const ESCAPE_GAP_MS = 150;

/** The tiny second language server of the tests (reports "a - b"). */
export const LINT_SERVER = path.join(REPO, "test/editors/helix/lint-server.mjs");

/** A Helix the suites run on: a probed slot of the matrix and the release line it tests. */
export interface HelixEditor extends ProbedEditor {
  /** "25.01" (Debian trixie) or "25.07" (Debian sid: 25.07 and newer). */
  line: "25.01" | "25.07";
}

/**
 * The two Helix lines of the matrix: Debian trixie's 25.01 and sid's 25.07 (or newer), each
 * unpacked by `test/editors/install-helix.sh SUITE`. Env AGENT_LSP_HELIX_TRIXIE /
 * AGENT_LSP_HELIX_SID point elsewhere. tmux is checked too: every Helix case drives hx in it.
 */
export async function findHelixes(): Promise<HelixEditor[]> {
  const tmux = await run("tmux", ["-V"]).catch((err: Error) => err);
  const slots = [
    { line: "25.01" as const, name: "Helix 25.01 (Debian trixie)", suite: "trixie", version: /^helix 25\.01\b/ },
    // sid moves on: a later release there is the line the 25.07 cases are about.
    { line: "25.07" as const, name: "Helix 25.07 (Debian sid)", suite: "sid", version: /^helix (25\.(0[7-9]|1\d)|2[6-9]\.\d)/ },
  ];
  return slots.map(({ line, name, suite, version }) => {
    const bin = process.env[`AGENT_LSP_HELIX_${suite.toUpperCase()}`] ?? path.join(REPO, `.cache/helix-${suite}/bin/hx`);
    if (tmux instanceof Error) return { line, name, bin, available: false, reason: `tmux is missing (apt-get install tmux): ${tmux.message}` };
    return { line, ...probeEditor(name, bin, version, `sh test/editors/install-helix.sh ${suite}`, cleanEnv()) };
  });
}

/**
 * One describe block per Helix of the matrix, named `${name}, in ${editor}`, whose cases run when
 * that Helix is there; without it, one skipped case that says why, or under
 * AGENT_LSP_REQUIRE_ALL=1 (CI) one failing case: a missing Helix is not a pass.
 */
export function describeEachHelix(name: string, editors: HelixEditor[], cases: (editor: HelixEditor) => void): void {
  for (const editor of editors) {
    describe(`${name}, in ${editor.name}`, () => {
      if (editor.available) {
        cases(editor);
      } else if (process.env.AGENT_LSP_REQUIRE_ALL === "1") {
        it("is installed", () => {
          throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`);
        });
      } else {
        it.skip(`skipped: ${editor.reason}`, () => undefined);
      }
    });
  }
}

/** The environment without provider keys, XDG folders or another Helix's settings. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/_API_KEY$|^XDG_|^HELIX_|^TMUX|^AGENT_LSP_/.test(k)) continue;
    env[k] = v;
  }
  return env;
}

/** How a Helix session is set up. */
export interface HelixOptions {
  /** The Helix to run (one of findHelixes()). */
  editor: HelixEditor;
  fake: FakeProvider;
  /** Project files, by path relative to the project. */
  files?: Record<string, string>;
  /** An existing project folder to use (kept when the session ends: a second Helix can open it). */
  project?: string;
  /** Files Helix opens at start (relative to the project). */
  open?: string[];
  /** The servers of the test language (javascript), in order. Default: test-lint, agent-lsp. */
  servers?: string[];
  /** Safety mode of the server's config (full_access unless said). */
  safety?: string;
  /** More of agent-lsp's config (initializationOptions): `editor`, `approval_timeout_s`... */
  agentConfig?: Record<string, unknown>;
  /** Replaces the whole languages.toml (the setup tests bring their own). */
  languagesToml?: string;
  /** Files in the throwaway HOME, by path relative to it (a user's agent-lsp config). */
  homeFiles?: Record<string, string>;
  /** More of Helix's config.toml (after `[editor.lsp]`; start it with a table header). */
  config?: string;
  /** Extra environment for Helix and the servers it starts (PATH for a shim). */
  env?: Record<string, string>;
  width?: number;
  height?: number;
}

/** A running Helix with its project, config and log. */
export class HelixSession {
  /** Helix's own log: every LSP message and each server's stderr. */
  readonly logFile: string;

  private constructor(
    readonly base: string,
    readonly project: string,
    readonly home: string,
    readonly pane: TmuxPane,
  ) {
    this.logFile = path.join(base, "helix.log");
  }

  /** Writes the project and config, then starts `hx -v` on `open` in tmux; resolves once Helix draws. */
  static async start(options: HelixOptions): Promise<HelixSession> {
    const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-helix-")));
    const project = options.project ?? path.join(base, "project");
    const home = path.join(base, "home");
    for (const [rel, text] of Object.entries(options.files ?? {})) writeFile(path.join(project, rel), text);
    for (const [rel, text] of Object.entries(options.homeFiles ?? {})) writeFile(path.join(home, rel), text);
    mkdirSync(project, { recursive: true });
    const configDir = path.join(home, ".config/helix");
    writeFile(path.join(configDir, "config.toml"), `[editor.lsp]\ndisplay-progress-messages = true\n${options.config ?? ""}`);
    writeFile(path.join(configDir, "languages.toml"), options.languagesToml ?? testLanguagesToml(options));
    const launcher = path.join(base, "run-hx.sh");
    writeFile(launcher, launcherScript(options.editor.bin, project, path.join(base, "helix.log"), options.open ?? []));
    const env: NodeJS.ProcessEnv = {
      ...cleanEnv(),
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      XDG_DATA_HOME: path.join(home, ".local/share"),
      XDG_STATE_HOME: path.join(home, ".local/state"),
      TERM: "xterm-256color",
      ...options.env,
    };
    const pane = await TmuxPane.start({ socket: path.join(base, "tmux.sock"), cwd: project, env, command: `sh ${shellQuote(launcher)}`, width: options.width ?? 200, height: options.height ?? 50 });
    const session = new HelixSession(base, project, home, pane);
    try {
      await session.waitForScreen((s) => / NOR /.test(s), { what: "Helix's status line (normal mode)" });
    } catch (err) {
      await session.dispose(); // the caller never gets the session, so nothing else would stop tmux
      throw err;
    }
    return session;
  }

  /** The absolute path of a project file. */
  file(rel: string): string {
    return path.join(this.project, rel);
  }

  /** A project file's text on disk. */
  read(rel: string): string {
    return readFileSync(this.file(rel), "utf8");
  }

  /** Sends keys by tmux name (`Enter`, `Escape`, `C-n`, `Space`, or literal words). */
  sendKeys(...keys: string[]): Promise<void> {
    return this.pane.sendKeys(...keys);
  }

  /** Types text literally (insert mode or a prompt must be open). */
  typeText(text: string): Promise<void> {
    return this.pane.typeText(text);
  }

  /** The screen as text. */
  capture(): Promise<string> {
    return this.pane.capture();
  }

  /** Waits until the screen satisfies `predicate`; a timeout shows the screen, the log's tail and agent-lsp's stderr. */
  waitForScreen(predicate: (screen: string) => boolean, options: WaitOptions = {}): Promise<string> {
    return this.pane.waitFor(predicate, { diagnose: () => this.diagnostics(), ...options });
  }

  /** The message row (the screen's last line): status, errors, `window/showMessage`. */
  async messageLine(): Promise<string> {
    return messageRow(await this.capture());
  }

  /** Waits for a line of Helix's log that matches (e.g. a server being initialized). */
  async waitForLog(pattern: RegExp, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.helixLog())) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} in Helix's log\n${this.diagnostics()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Resolves once Helix has initialized the named server (code actions go only to initialized ones). */
  waitForServer(name = "agent-lsp"): Promise<void> {
    return this.waitForLog(new RegExp(`${escapeRegExp(name)} -> \\{"jsonrpc":"2.0","method":"initialized"`), `${name} to be initialized`);
  }

  /**
   * Opens the code-action menu (space a) and returns the screen once an entry matching `title`
   * is in it. Helix draws the menu only when every server has answered, so it is complete then.
   */
  async openCodeActions(title: string | RegExp): Promise<string> {
    await this.sendKeys("Space", "a");
    return this.waitForScreen((s) => matches(s, title), { what: `the code action ${String(title)} in the space-a menu` });
  }

  /**
   * Runs the code action titled `title` from the space-a menu. Helix 25.01's menu cannot be
   * filtered by typing (typed keys fall through to the editor), so this moves the highlight with
   * C-n until the reverse-video entry is `title`, checking the screen after every step.
   * `beforeEnter` runs with the entry highlighted, just before it is picked (to let something
   * happen while the menu is open). Returns the title picked.
   */
  async pickCodeAction(title: string | RegExp, beforeEnter?: () => Promise<void>): Promise<string> {
    await this.openCodeActions(title);
    const seen = new Set<string>();
    let selected: string;
    for (;;) {
      selected = await this.menuSelection();
      if (typeof title === "string" ? selected === title : title.test(selected)) break;
      if (seen.has(selected)) throw new Error(`"${title}" is not selectable in the code-action menu (went round: ${[...seen].join(" | ")})\n${await this.capture()}`);
      seen.add(selected);
      await this.sendKeys("C-n");
      const deadline = Date.now() + DEFAULT_WAIT_MS;
      while ((await this.menuSelection()) === selected) {
        if (Date.now() > deadline) throw new Error(`the menu highlight did not move from "${selected}"\n${await this.capture()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await beforeEnter?.();
    await this.sendKeys("Enter");
    // Closed when no highlighted entry is left (the title itself may be in the buffer: the chat file).
    const deadline = Date.now() + DEFAULT_WAIT_MS;
    while (reversedText(await this.pane.captureStyled()).some((r) => r.replace(/[▐█]\s*$/, "").trim() === selected)) {
      if (Date.now() > deadline) throw new Error(`the code-action menu did not close\n${await this.capture()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return selected;
  }

  /** The highlighted (reverse-video) entry of the open menu; the 1-cell cursor is not one. */
  async menuSelection(): Promise<string> {
    // The menu may be drawn a frame before its highlight: look again briefly before failing.
    let rows: string[] = [];
    for (let tries = 0; tries < 20; tries++) {
      // A long menu draws its scrollbar (▐, █) at the right edge of the row: not part of the title.
      rows = reversedText(await this.pane.captureStyled()).map((r) => r.replace(/[▐█]\s*$/, "").trim()).filter((r) => r.length > 1);
      if (rows.length === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (rows.length !== 1) throw new Error(`expected one highlighted menu entry, found ${rows.length}: ${JSON.stringify(rows)}\n${await this.capture()}`);
    return rows[0]!;
  }

  /** Runs `:lsp-workspace-command NAME` (Helix 25.01 passes no arguments). */
  async workspaceCommand(name: string): Promise<void> {
    await this.sendKeys(":");
    await this.waitForScreen((s) => messageRow(s).startsWith(":"), { what: "the command prompt" });
    await this.typeText(`lsp-workspace-command ${name}`);
    await this.sendKeys("Enter");
  }

  /**
   * Presses Escape (closing a menu or prompt, leaving insert mode) and waits for normal mode.
   * The pause after it is input pacing, not a wait for a result: an Escape that reaches the
   * terminal in the same read as the next key is taken as Alt+key (Escape then ":" is Alt-:).
   */
  async escape(): Promise<void> {
    await this.sendKeys("Escape");
    await new Promise((r) => setTimeout(r, ESCAPE_GAP_MS));
    await this.waitForScreen((s) => / NOR /.test(s), { what: "normal mode after Escape" });
  }

  /** Quits with `:qa!` and waits for hx to exit; true when it exited with status 0. */
  async quit(): Promise<boolean> {
    await this.closePopups();
    await this.sendKeys(":");
    await this.waitForScreen((s) => messageRow(s).startsWith(":"), { what: "the command prompt" });
    await this.typeText("qa!");
    await this.sendKeys("Enter");
    const screen = await this.waitForScreen((s) => /\[hx exited with status \d+\]/.test(s), { what: "hx to exit" });
    return screen.includes("[hx exited with status 0]");
  }

  /**
   * Escape until no popup (picker, menu, prompt box: drawn in a frame) is left. On a loaded
   * machine an Escape can reach Helix in the same read as the key after it and be taken as Alt
   * with it, leaving a picker open to take the next keys as its filter; so the next key waits
   * for the frame to be gone, and a lost Escape is sent again.
   */
  private async closePopups(): Promise<void> {
    const noFrame = (s: string) => !s.includes("┌") && / NOR /.test(s);
    for (let attempt = 1; ; attempt++) {
      await this.escape();
      try {
        await this.waitForScreen(noFrame, { what: "every popup closed", timeoutMs: 5_000 });
        return;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  }

  /** Stops tmux (and with it Helix and its servers) and removes the folders (kept with AGENT_LSP_KEEP_HELIX=1, to read them). */
  async dispose(): Promise<void> {
    await this.pane.kill();
    if (process.env.AGENT_LSP_KEEP_HELIX === "1") process.stderr.write(`helix test folder kept: ${this.base}\n`);
    else rmSync(this.base, { recursive: true, force: true });
  }

  /** Helix's log so far. */
  helixLog(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, "utf8") : "";
  }

  /** What a server wrote to stderr, as Helix logged it. */
  serverStderr(name = "agent-lsp"): string {
    const prefix = `${name} err <- `;
    return this.helixLog()
      .split("\n")
      .filter((l) => l.includes(prefix))
      .map((l) => JSON.parse(l.slice(l.indexOf(prefix) + prefix.length)) as string)
      .join("");
  }

  /** The messages a server sent Helix with this method (requests and notifications), in order. */
  serverMessages(method: string, name = "agent-lsp"): { id?: number; params: any }[] {
    // Helix logs each raw message as `<name> <- {"jsonrpc":...}` (responses once more, decoded).
    const prefix = `${name} <- {"jsonrpc"`;
    return this.helixLog()
      .split("\n")
      .filter((l) => l.includes(prefix))
      .map((l) => JSON.parse(l.slice(l.indexOf(prefix) + name.length + 4)))
      .filter((m) => m.method === method);
  }

  /** Helix's requests of `method` to a server, each with the server's answer once it came. */
  exchanges(method: string, name = "agent-lsp"): { params: any; result?: unknown }[] {
    const sent = `${name} -> {"jsonrpc"`;
    const got = `${name} <- {"jsonrpc"`;
    const requests = new Map<number, { params: any; result?: unknown }>();
    for (const line of this.helixLog().split("\n")) {
      const outgoing = line.includes(sent);
      if (!outgoing && !line.includes(got)) continue;
      const message = JSON.parse(line.slice(line.indexOf(outgoing ? sent : got) + name.length + 4));
      if (outgoing && message.method === method && message.id !== undefined) requests.set(message.id, { params: message.params });
      else if (!outgoing && message.method === undefined && requests.has(message.id)) requests.get(message.id)!.result = message.result;
    }
    return [...requests.values()];
  }

  /** agent-lsp's own log files in the project (`.agent-lsp/logs/`). */
  agentLogs(): string {
    const dir = path.join(this.project, ".agent-lsp/logs");
    if (!existsSync(dir)) return "";
    return readdirSync(dir).map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
  }

  private diagnostics(): string {
    const tail = this.helixLog().split("\n").slice(-25).map((l) => l.slice(0, 600)).join("\n");
    return `--- helix.log (tail) ---\n${tail}\n--- agent-lsp stderr ---\n${this.serverStderr().slice(-3000)}`;
  }
}

/** The languages.toml of a test: agent-lsp (and the lint server) for javascript, pointed at the fake. */
function testLanguagesToml(options: HelixOptions): string {
  const config = fakeProviderOptions(options.fake, { safety: options.safety ?? "full_access", ...options.agentConfig });
  return stringify({
    "language-server": {
      "agent-lsp": { command: process.execPath, args: [SERVER_BUNDLE, "--stdio"], config },
      "test-lint": { command: process.execPath, args: [LINT_SERVER, "--stdio"] },
    },
    // The chat file (.agent-lsp/chat.md) is markdown: agent-lsp serves it too, as the snippet does.
    language: [
      { name: "javascript", "language-servers": options.servers ?? ["test-lint", "agent-lsp"] },
      { name: "markdown", "language-servers": ["agent-lsp"] },
    ],
  });
}

/** Runs hx, then leaves its exit status on the screen (the pane stays, so a crash stays readable). */
function launcherScript(bin: string, project: string, log: string, open: string[]): string {
  const files = open.map(shellQuote).join(" ");
  return [
    `cd ${shellQuote(project)} || exit 1`,
    `${shellQuote(bin)} -v --log ${shellQuote(log)} ${files}`,
    'echo "[hx exited with status $?]"',
    "exec sleep 86400",
    "",
  ].join("\n");
}

function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

/** The message row of a screen (its bottom row): status, errors, `window/showMessage`. */
export function messageRow(screen: string): string {
  // capture-pane ends every row, the last too, with a newline.
  return (screen.endsWith("\n") ? screen.slice(0, -1) : screen).split("\n").at(-1) ?? "";
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
