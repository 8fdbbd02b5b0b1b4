/**
 * Vim 9 with ALE (Debian's `vim` and `vim-ale`) under tmux, with agent-lsp as an ALE linter of
 * markdown and javascript, the set-up docs/any-client.md gives: a throwaway project and home,
 * keys in through tmux, the screen back, code actions picked from ALE's numbered list.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fakeProviderOptions } from "../helpers/agent-setup.js";
import type { FakeProvider } from "../helpers/fake-provider/index.js";
import { cleanEnv } from "./helix-harness.js";
import { SERVER_BUNDLE } from "./nvim-harness.js";
import { TmuxPane, type WaitOptions } from "./tmux-pane.js";

/** Where Debian's vim-ale puts the plugin. */
export const ALE_DIR = process.env.AGENT_LSP_VIM_ALE ?? "/usr/share/vim-ale";

/** Vim with ALE, or why not (apt-get install vim vim-ale tmux). */
export function findVimAle(): { available: true } | { available: false; reason: string } {
  for (const [bin, args] of [["vim", ["--version"]], ["tmux", ["-V"]]] as const) {
    try {
      execFileSync(bin, args, { stdio: "ignore" });
    } catch (err) {
      return { available: false, reason: `${bin} is missing (apt-get install vim vim-ale tmux): ${(err as Error).message}` };
    }
  }
  if (!existsSync(path.join(ALE_DIR, "plugin/ale.vim"))) return { available: false, reason: `ALE is not in ${ALE_DIR} (apt-get install vim-ale)` };
  return { available: true };
}

/** How a Vim session starts. */
export interface VimOptions {
  fake: FakeProvider;
  files: Record<string, string>;
  /** The file Vim opens. */
  open: string;
  /** More of agent-lsp's config (initializationOptions). */
  agentConfig?: Record<string, unknown>;
  /** A project folder to use (and keep) instead of a new one: a restart goes on in it. */
  project?: string;
}

/** A running Vim with ALE and its project. */
export class VimSession {
  private constructor(
    readonly base: string,
    readonly project: string,
    private readonly pane: TmuxPane,
  ) {}

  /** Writes the project and a vimrc, then starts Vim in tmux; resolves once it draws. */
  static async start(options: VimOptions): Promise<VimSession> {
    const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-vim-")));
    const project = options.project ?? path.join(base, "project");
    const home = path.join(base, "home");
    for (const [rel, text] of Object.entries(options.files)) write(path.join(project, rel), text);
    mkdirSync(home, { recursive: true });
    const config = fakeProviderOptions(options.fake, { safety: "full_access", tools: { provider_native: false }, ...options.agentConfig });
    write(path.join(base, "vimrc"), vimrc(config));
    const env = { ...cleanEnv(), HOME: home, TERM: "xterm-256color" };
    const command = `vim -N -u ${path.join(base, "vimrc")} -i NONE ${options.open}; echo "[vim exited with status $?]"; exec sleep 86400`;
    const pane = await TmuxPane.start({ socket: path.join(base, "tmux.sock"), cwd: project, env, command, width: 160, height: 50 });
    const session = new VimSession(base, project, pane);
    try {
      await session.waitForScreen((s) => s.includes("~"), { what: "Vim drawn" });
    } catch (err) {
      await session.dispose();
      throw err;
    }
    return session;
  }

  /** A project file's text on disk. */
  read(rel: string): string {
    return readFileSync(path.join(this.project, rel), "utf8");
  }

  sendKeys(...keys: string[]): Promise<void> {
    return this.pane.sendKeys(...keys);
  }

  typeText(text: string): Promise<void> {
    return this.pane.typeText(text);
  }

  capture(): Promise<string> {
    return this.pane.capture();
  }

  waitForScreen(predicate: (screen: string) => boolean, options: WaitOptions = {}): Promise<string> {
    return this.pane.waitFor(predicate, { diagnose: () => this.agentLog(), ...options });
  }

  /** Runs an Ex command (`:...` Enter) from normal mode. */
  async ex(command: string): Promise<void> {
    await this.pane.sendKeys("Escape");
    await this.pane.typeText(`:${command}`);
    await this.pane.sendKeys("Enter");
  }

  /** `:ALECodeAction` on the cursor, then picks the entry titled `title` (or matching it) from ALE's numbered list; returns the list. */
  async pickCodeAction(title: string | RegExp): Promise<string[]> {
    await this.ex("ALECodeAction");
    const list = await this.waitForScreen((s) => s.includes("Type number and <Enter>"), { what: `ALE's code action list (for "${String(title)}")` });
    const entries = list.split("\n").map((l) => /^(\d+)\) (.*?)\s*$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const entry = entries.find((m) => (typeof title === "string" ? m[2] === title : title.test(m[2]!)));
    if (!entry) throw new Error(`no "${String(title)}" in ALE's list:\n${list}`);
    await this.pane.typeText(entry[1]!);
    await this.pane.sendKeys("Enter");
    await this.waitForScreen((s) => !s.includes("Type number and <Enter>"), { what: "the list closed" });
    return entries.map((m) => m[2]!);
  }

  /** Puts the cursor on the first line containing `text` (a search from the top). */
  async goTo(text: string): Promise<void> {
    await this.ex(`call cursor(search('\\V${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}', 'w'), 1)`);
  }

  /** Saves the buffer and returns the file's text from disk. */
  async saved(rel: string): Promise<string> {
    await this.ex("echo ''");
    await this.waitForScreen((s) => !/written/.test(s), { what: "the message line cleared" });
    await this.ex("w!");
    await this.waitForScreen((s) => /written/.test(s), { what: `${rel} written` });
    return this.read(rel);
  }

  /** agent-lsp's log in the project, for a failed wait. */
  agentLog(): string {
    const file = path.join(this.project, ".agent-lsp/logs/agent-lsp.log");
    return existsSync(file) ? `--- agent-lsp.log (tail) ---\n${readFileSync(file, "utf8").split("\n").slice(-25).join("\n")}` : "";
  }

  /** Stops tmux, Vim and the server; removes the folders (kept with AGENT_LSP_KEEP_VIM=1). */
  async dispose(): Promise<void> {
    await this.pane.kill();
    if (process.env.AGENT_LSP_KEEP_VIM === "1") process.stderr.write(`vim test folder kept: ${this.base}\n`);
    else rmSync(this.base, { recursive: true, force: true });
  }
}

/** The vimrc of docs/any-client.md, pointed at the built server and the fake provider. */
function vimrc(config: Record<string, unknown>): string {
  const linter = (filetype: string) =>
    `call ale#linter#Define('${filetype}', {'name': 'agent-lsp', 'lsp': 'stdio', 'executable': '${process.execPath}', ` +
    `'command': '%e ${SERVER_BUNDLE} --stdio', 'project_root': {buffer -> getcwd()}, 'initialization_options': json_decode(g:agent_lsp_options)})`;
  return [
    "set nocompatible noswapfile nobackup hidden",
    `set runtimepath^=${ALE_DIR}`,
    `set runtimepath+=${ALE_DIR}/after`,
    "filetype plugin on",
    `let g:agent_lsp_options = '${JSON.stringify(config).replace(/'/g, "''")}'`,
    "let g:ale_linters = {'markdown': ['agent-lsp'], 'javascript': ['agent-lsp']}",
    "let g:ale_linters_explicit = 1",
    linter("markdown"),
    linter("javascript"),
    "",
  ].join("\n");
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
