/**
 * The one sandbox layer every process agent-lsp starts goes through (commands foreground and
 * background, git, MCP servers that opt in): given a program line, the project and the settings,
 * it answers with the line that runs it inside the sandbox (bubblewrap on Linux, sandbox-exec on
 * macOS), or the same line and why it is not sandboxed, or refuses when `[exec] sandbox` is
 * `required` and the sandbox cannot run. A launch also reads its own refusals back out of the
 * output, and owns the network proxy it may have started.
 */
import os from "node:os";
import path from "node:path";
import { realpathSync } from "node:fs";
import { bridged } from "./bridge.js";
import { bwrapArgs } from "./bwrap-args.js";
import { sandboxCovers } from "./covers.js";
import { explainDenials } from "./denials.js";
import { sandboxLayout, type Layout } from "./layout.js";
import { seatbeltProfile } from "./macos-profile.js";
import { sandboxAvailability, type Availability } from "./probe.js";
import type { FilteringProxy, ProxyListen, ProxyRules } from "./proxy.js";
import { daemonSockets, runtimeFolders } from "./sockets.js";
import { NO_SANDBOX, SandboxRequiredError, type SandboxOutcome, type SandboxSettings } from "./settings.js";

/** A program to start, and where. */
export interface LaunchRequest {
  file: string;
  args: readonly string[];
  /** Absolute folder it starts in. */
  cwd: string;
  /** The project root: what stays writable. */
  root: string;
  /** PATH of the launch's environment: bwrap is looked for there. */
  searchPath?: string;
  /** The user approved running it outside the sandbox, for this reason. */
  outside?: string;
  /** It shares the server's session and terminal (git, MCP servers), rather than starting its own. */
  sharesSession?: boolean;
}

/** A program line ready to start, and how it runs. */
export interface Launch {
  file: string;
  args: string[];
  outcome: SandboxOutcome;
  /** Variables to add to its environment (the proxy's address on macOS). */
  env: Record<string, string>;
  /** Sentences about what the sandbox refused the process, read from its output and the proxy. */
  explain(output: string): string[];
  /** Ends what the launch set up (its network proxy); call once the process has ended. */
  release(): void;
}

let proxySockets = 0;

/** The sandbox of one server (its settings follow config reloads). */
export class Sandbox {
  constructor(private settings: SandboxSettings = NO_SANDBOX) {}

  /** Replaces the settings (a config reload); running processes keep the sandbox they started in. */
  configure(settings: SandboxSettings): void {
    this.settings = settings;
  }

  /** `[exec] sandbox`. */
  get mode(): SandboxSettings["mode"] {
    return this.settings.mode;
  }

  /** Whether the sandbox works here, for launches whose PATH is `searchPath` (cached). */
  availability(searchPath: string | undefined = process.env.PATH): Promise<Availability> {
    return sandboxAvailability(searchPath);
  }

  /**
   * How a launch would run, before anything is asked: sandboxed, or not and why. Under
   * `required` an answer of not sandboxed means it will be refused.
   */
  async outlook(searchPath?: string, outside?: string): Promise<SandboxOutcome> {
    if (this.settings.mode === "off") return { sandboxed: false, why: '[exec] sandbox is "off"' };
    if (outside !== undefined) return { sandboxed: false, why: `approved to run outside the sandbox: ${outside}` };
    const available = await this.availability(searchPath);
    return available.works ? { sandboxed: true, network: this.settings.network } : { sandboxed: false, why: available.why };
  }

  /** The line that starts `request`; throws SandboxRequiredError where it may not run unsandboxed. */
  async launch(request: LaunchRequest): Promise<Launch> {
    const plain = (why: string): Launch => ({ file: request.file, args: [...request.args], outcome: { sandboxed: false, why }, env: {}, explain: () => [], release: () => {} });
    if (this.settings.mode === "off") return plain('[exec] sandbox is "off"');
    if (request.outside !== undefined) {
      if (this.settings.mode === "required") throw new SandboxRequiredError();
      return plain(`approved to run outside the sandbox: ${request.outside}`);
    }
    const available = await this.availability(request.searchPath);
    if (!available.works) {
      if (this.settings.mode === "required") throw new SandboxRequiredError(available.why);
      return plain(available.why);
    }
    const layout = sandboxLayout(request.root, [...this.settings.hidden, ...daemonSockets(process.env)], runtimeFolders(process.env));
    return available.kind === "bwrap" ? this.bwrapLaunch(available.program, request, layout) : this.seatbeltLaunch(available.program, request, layout);
  }

  private async bwrapLaunch(bwrap: string, request: LaunchRequest, layout: Layout): Promise<Launch> {
    const covers = sandboxCovers();
    const proxySocket = this.settings.network === "allow_hosts" ? path.join(covers.folder, `proxy-${++proxySockets}.sock`) : undefined;
    const proxy = proxySocket ? await startProxy({ socket: proxySocket }, this.rules()) : undefined;
    const command = [request.file, ...request.args];
    const args = bwrapArgs({
      layout,
      cwd: request.cwd,
      emptyFile: covers.emptyFile,
      isRoot: process.getuid?.() === 0,
      ...(proxySocket ? { proxySocket } : {}),
      newSession: request.sharesSession === true,
      command: proxySocket ? bridged(proxySocket, command) : command,
    });
    return this.sandboxed(bwrap, args, {}, layout, request.cwd, proxy);
  }

  private async seatbeltLaunch(program: string, request: LaunchRequest, layout: Layout): Promise<Launch> {
    const proxy = this.settings.network === "allow_hosts" ? await startProxy({ port: 0 }, this.rules()) : undefined;
    const profile = seatbeltProfile({ layout, tempDirs: [realTempDir()], ...(proxy?.port ? { proxyPort: proxy.port } : {}) });
    const url = proxy?.port ? `http://127.0.0.1:${proxy.port}` : undefined;
    const env: Record<string, string> = url ? { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url } : {};
    return this.sandboxed(program, ["-p", profile, request.file, ...request.args], env, layout, request.cwd, proxy);
  }

  private sandboxed(file: string, args: string[], env: Record<string, string>, layout: Layout, cwd: string, proxy: FilteringProxy | undefined): Launch {
    const network = this.settings.network;
    return {
      file,
      args,
      outcome: { sandboxed: true, network },
      env,
      explain: (output) => {
        const said = explainDenials(output, { layout, cwd, proxied: proxy !== undefined });
        const refused = proxy?.refusals() ?? [];
        if (refused.length) said.push(`The sandbox's network proxy refused ${refused.join("; ")}.`);
        return said;
      },
      release: () => proxy?.close(),
    };
  }

  private rules() {
    return { allowHosts: this.settings.allowHosts, privateHosts: this.settings.privateHosts };
  }
}

/** The network filter of `allow_hosts`, imported when first started: node:http is not loaded for a session that runs no command under it. */
async function startProxy(listen: ProxyListen, rules: ProxyRules): Promise<FilteringProxy> {
  const { FilteringProxy } = await import("./proxy.js");
  return FilteringProxy.start(listen, rules);
}

function realTempDir(): string {
  try {
    return realpathSync(os.tmpdir());
  } catch {
    return os.tmpdir();
  }
}
