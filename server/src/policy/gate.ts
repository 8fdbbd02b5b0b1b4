/**
 * The policy gate: every tool call passes `check` before it runs, and every change set, outside
 * path and command a running tool finds passes `authorize`. Order of questions, each able to
 * refuse: trust, the mode, the floors, then (rules, classifier, user) in the Approver.
 *
 * Each gated action is decided exactly once per call. A tool that asks for its own actions
 * (GateMetadata) passes `check` and is asked at `authorize`, where the diff or the exact command
 * exists; any other mutating tool is asked at `check` from its input, and what it later
 * authorizes within the same call is covered by that answer. See docs/safety.md.
 */
import os from "node:os";
import path from "node:path";
import { isInside } from "../workspace/paths.js";
import type { GateDecision, GatedAction, ListFilter, ToolDescriptor } from "../vocabulary/policy.js";
import { ALLOW, Approver, type ApproverDeps, type Proposal } from "./approver.js";
import { commandOf, commandSummary, folderOf, inputPaths, oneLine, outside } from "./call-facts.js";
import { asksChanges, asksItself, metadata, readsPaths } from "./gate-capability.js";
import { coveredInCall, deny, guestRefusal, outsideRefusal, sensitiveRefusal, type OutsideAccess } from "./gate-refusals.js";
import { checkDetails, checkSummary } from "./gate-texts.js";
import { checkFloors, type FloorHit } from "./floors.js";
import { currentBranch } from "./git-head.js";
import { isReadOnlyMode, modeActionRefusal, modeRefusal, PLAN_ONLY_TOOLS } from "./modes.js";
import { userConfigDir, userStateDir } from "../config/user-dirs.js";
import { ApprovalBook } from "./rule-book.js";
import { sensitivePlaces, type SensitivePlaces } from "./sensitive.js";
import { sensitiveScopeOf, sensitiveScopes } from "./sensitive-scopes.js";
import { agentSettingsPlaces } from "./agent-settings.js";
import { commandScopes, type CommandPlace } from "./command-scopes.js";
import { mcpSensitiveScopes } from "./mcp-input.js";
import { sandboxWords, scopesInSandbox } from "./command-sandbox.js";
import { externalScope, fileChangeScopes, toolPathScope, toolScope, uniqueScopes, type Scope } from "./rules.js";
import { policyForTrust, trustRefusal } from "./trust.js";
import type { ImageBlock } from "../vocabulary/messages.js";
import type { BatchCall, GateCall, GateSession, ToolGate } from "./types.js";

/** What the gate is built from. */
export interface PolicyGateDeps extends Omit<ApproverDeps, "book" | "places"> {
  /** The user's home folder (the floors and the sensitive places hang on it); os.homedir() by default. */
  home?: string;
  /** The environment naming the user's config and state folders; process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** The checked-out branch at a folder; read from .git/HEAD by default. */
  currentBranch?(dir: string): string | undefined;
}

/** What one call has had approved so far (the gate never asks twice within a call). */
interface CallMemory {
  /** The call itself was approved at check: its in-project changes and commands are covered. */
  approved: boolean;
  commands: Set<string>;
  external: { dir: string; access: "read" | "write" }[];
  /** Outside folders a file tool will write; decided with the diff in its file_change. */
  deferred: string[];
  /** Sensitive paths approved within the call (asked once per call, never remembered). */
  sensitive: Set<string>;
}

/** The real gate. */
export class PolicyGate implements ToolGate {
  /** The approval rules in force (session and remembered). */
  readonly book: ApprovalBook;
  private readonly approver: Approver;
  private readonly calls = new WeakMap<GateCall, CallMemory>();
  private placesMemo: { key: string; places: SensitivePlaces } | undefined;

  constructor(private readonly deps: PolicyGateDeps) {
    this.book = new ApprovalBook(
      (message) => deps.editor.showMessage("warning", `agent-lsp approvals: ${message}`),
      () => {
        const env = this.userEnv();
        return { stateDir: userStateDir(env), configDir: userConfigDir(env), home: this.home() };
      },
    );
    this.approver = new Approver({ ...deps, book: this.book, places: () => this.places() });
  }

  /** Trust decides the classes offered; write tools stay offered in read-only modes (refused with a reason). */
  filter(session: GateSession): ListFilter {
    return {
      kind: "all",
      policy: policyForTrust(session.trust),
      excludedNames: session.mode === "plan" ? [] : PLAN_ONLY_TOOLS,
    };
  }

  async check(session: GateSession, call: GateCall, capability: ToolDescriptor, signal: AbortSignal): Promise<GateDecision> {
    const refusal = trustRefusal(session.trust, capability) ?? modeRefusal(session.mode, capability);
    if (refusal) return deny(refusal);
    const command = commandOf(capability, call.input, session.root, this.home());
    const floor = command && (await this.floor(session, command.command, command.cwd));
    if (floor) return deny(floor.reason);
    const paths = readsPaths(capability) ? inputPaths(call.input, session.root, this.home()) : [];
    const external = outside(paths, session.root);
    const access: OutsideAccess = capability.policyClass === "read_only" ? "read" : "write";
    if (external.length && isReadOnlyMode(session.mode)) return deny(outsideRefusal(session, access, external[0]!));
    // An MCP tool's paths are its server's business, except sensitive places: asked as for our
    // tools, whether named as a path or reached by a command line it is given.
    const sensitive =
      capability.kind === "mcp"
        ? await mcpSensitiveScopes(call.input, { ...this.commandPlace(session, session.root), sensitive: this.places() }, access)
        : await sensitiveScopes(paths, access, this.places(), session.root);
    if (sensitive.length && isReadOnlyMode(session.mode)) return deny(sensitiveRefusal(session, sensitive[0]!.scope));
    // A sensitive path is asked as itself; its folder's scope would only repeat it.
    const ordinary = external.filter((p) => !sensitive.some((s) => s.path === p));
    const scopes = [...sensitive.map((s) => s.scope), ...(await this.callScopes(session, call, capability, command, ordinary))];
    if (!scopes.length) return ALLOW;
    const proposal: Proposal = {
      session,
      call,
      summary: checkSummary(session, call, command, external),
      details: checkDetails(capability, call, command, external),
      scopes,
    };
    const decision = await this.approver.decide(proposal, signal);
    if (!decision.allowed) return decision;
    await this.rememberCall(call, capability, command?.command, external);
    for (const s of sensitive) this.memory(call).sensitive.add(s.path);
    return ALLOW;
  }

  async checkBatch(session: GateSession, capability: ToolDescriptor, calls: BatchCall[], screenshot: ImageBlock | undefined, signal: AbortSignal): Promise<GateDecision> {
    const what = `${capability.name}: ${calls.length} input action${calls.length === 1 ? "" : "s"} on the desktop`;
    const refusal = trustRefusal(session.trust, capability) ?? modeActionRefusal(session.mode, `Driving the mouse and keyboard (${what})`);
    if (refusal) return deny(`${refusal} Screenshots, zoom, cursor_position and wait still work.`);
    return this.approver.decide(
      {
        session,
        call: calls[0]!,
        summary: `${what}: ${oneLine(calls.map((c) => c.description).join("; "), 400)}`,
        details: [`Tool: ${capability.name} (${capability.policyClass}): drives the user's real mouse and keyboard, in this order:`, ...calls.map((c, i) => `${i + 1}. ${c.description}`)].join("\n"),
        scopes: [toolScope(capability.name, capability.policyClass)],
        ...(screenshot ? { images: [screenshot] } : {}),
      },
      signal,
    );
  }

  async authorize(session: GateSession, call: GateCall, capability: ToolDescriptor, action: GatedAction, signal: AbortSignal): Promise<GateDecision> {
    if (action.kind === "file_change") return this.fileChange(session, call, action, signal);
    if (action.kind === "external_path") return this.externalPath(session, call, capability, action, signal);
    if (action.kind === "mcp_request") return this.mcpRequest(session, call, action, signal);
    return this.command(session, call, action, signal);
  }

  /** A request a local tool (mcp_tools) makes of an MCP server: refused where reading out is, else asked each time. */
  private async mcpRequest(session: GateSession, call: GateCall, action: Extract<GatedAction, { kind: "mcp_request" }>, signal: AbortSignal): Promise<GateDecision> {
    const what = `Reaching the MCP server ${JSON.stringify(action.server)}`;
    const refusal = guestRefusal(session, what) ?? modeActionRefusal(session.mode, what);
    if (refusal) return deny(refusal);
    return this.approver.decide(
      { session, call, summary: action.summary, details: `MCP server: ${action.server}\n${action.summary}`, scopes: [toolScope(call.name, "external_api", MCP_ASKED_EVERY_TIME)] },
      signal,
    );
  }

  private async fileChange(
    session: GateSession,
    call: GateCall,
    action: Extract<GatedAction, { kind: "file_change" }>,
    signal: AbortSignal,
  ): Promise<GateDecision> {
    const refusal = guestRefusal(session, "Changing files", "files") ?? modeActionRefusal(session.mode, `Changing files (${action.summary})`);
    if (refusal) return deny(refusal);
    const memory = this.memory(call);
    const deferred = memory.deferred.splice(0).map((dir) => externalScope(dir, "write"));
    const paths = action.files.map((f) => path.resolve(session.root, f.path));
    const sensitive = await sensitiveScopes(paths.filter((p) => !memory.sensitive.has(p)), "write", this.places(), session.root);
    const scopes = [...sensitive.map((s) => s.scope), ...fileChangeScopes(call.name, session.root, paths), ...deferred].filter(
      (s) => !(memory.approved && s.rule?.kind === "file") && !(s.rule?.kind === "external" && coveredInCall(memory, s.rule)),
    );
    if (!scopes.length) return ALLOW;
    return this.approver.decide(
      {
        session,
        call,
        summary: action.external ? `${action.summary} — outside the project` : action.summary,
        details: `Diff:\n${action.diff.slice(0, 3000)}`,
        scopes,
        diff: action.diff,
        files: action.files.map((f) => ({ uri: f.uri, oldText: f.oldText, newText: f.newText })),
      },
      signal,
    );
  }

  private async externalPath(
    session: GateSession,
    call: GateCall,
    capability: ToolDescriptor,
    action: Extract<GatedAction, { kind: "external_path" }>,
    signal: AbortSignal,
  ): Promise<GateDecision> {
    const abs = path.resolve(session.root, action.path);
    if (isReadOnlyMode(session.mode)) return deny(outsideRefusal(session, action.access, abs));
    const memory = this.memory(call);
    const dir = await folderOf(abs);
    const sensitive = await sensitiveScopeOf(abs, action.access, this.places(), session.root);
    if (sensitive && !memory.sensitive.has(abs)) return this.sensitivePath(session, call, abs, sensitive, signal);
    if (coveredInCall(memory, { kind: "external", dir, access: action.access })) return ALLOW;
    if (action.access === "write" && asksChanges(capability) && session.mode !== "full_access") {
      // The file_change that follows carries the diff: decide both there, in one prompt.
      memory.deferred.push(dir);
      return ALLOW;
    }
    const decision = await this.approver.decide(
      {
        session,
        call,
        summary: `${call.name}: ${action.access} ${abs} (outside the project)`,
        details: `${action.access === "read" ? "Read" : "Write"} outside the project: ${abs}`,
        scopes: [externalScope(dir, action.access)],
      },
      signal,
    );
    if (decision.allowed) memory.external.push({ dir, access: action.access });
    return decision;
  }

  private async command(
    session: GateSession,
    call: GateCall,
    action: Extract<GatedAction, { kind: "command" }>,
    signal: AbortSignal,
  ): Promise<GateDecision> {
    const floor = await this.floor(session, action.command, action.cwd);
    if (floor) return deny(floor.reason);
    const refusal = guestRefusal(session, "Running commands") ?? modeActionRefusal(session.mode, "Running commands");
    if (refusal) return deny(refusal);
    const memory = this.memory(call);
    if (memory.commands.has(action.command)) return ALLOW;
    const scopes = scopesInSandbox(await commandScopes(action.command, this.commandPlace(session, action.cwd)), action.sandbox);
    const where = sandboxWords(action.sandbox);
    const decision = await this.approver.decide(
      {
        session,
        call,
        summary: `${commandSummary(call.name, action.command, action.cwd, session.root)}${where}${action.note ? ` — ${action.note}` : ""}`,
        details: `Command: ${action.command.slice(0, 2000)}\nFolder: ${action.cwd}${where ? `\nWhere:${where.slice(2)}` : ""}${action.note ? `\nAlso: ${action.note}` : ""}`,
        scopes,
      },
      signal,
    );
    if (decision.allowed) memory.commands.add(action.command);
    return decision;
  }

  /** A sensitive path a running tool found: asked on its own, every time. */
  private async sensitivePath(session: GateSession, call: GateCall, abs: string, scope: Scope, signal: AbortSignal): Promise<GateDecision> {
    if (isReadOnlyMode(session.mode)) return deny(sensitiveRefusal(session, scope));
    const decision = await this.approver.decide(
      { session, call, summary: `${call.name}: ${abs}`, details: `Path: ${abs}`, scopes: [scope] },
      signal,
    );
    if (decision.allowed) this.memory(call).sensitive.add(abs);
    return decision;
  }

  /** The parts of a call that need approval before it runs. */
  private async callScopes(
    session: GateSession,
    call: GateCall,
    capability: ToolDescriptor,
    command: { command: string; cwd: string } | undefined,
    external: string[],
  ): Promise<Scope[]> {
    const access: OutsideAccess = capability.policyClass === "read_only" ? "read" : "write";
    const scopes: Scope[] = [];
    for (const p of external) scopes.push(externalScope(await folderOf(p), access));
    if (capability.policyClass === "read_only" || asksItself(capability)) return scopes;
    if (command) return uniqueScopes([...scopes, ...(await commandScopes(command.command, this.commandPlace(session, command.cwd)))]);
    const inside = capability.kind === "builtin" ? inputPaths(call.input, session.root, this.home()).filter((p) => isInside(session.root, p)) : [];
    if (!inside.length) return [...scopes, toolScope(call.name, capability.policyClass, metadata(capability).askEveryTime)];
    for (const p of inside) scopes.push(toolPathScope(call.name, capability.policyClass, await folderOf(p)));
    return scopes;
  }

  private async rememberCall(call: GateCall, capability: ToolDescriptor, command: string | undefined, external: string[]): Promise<void> {
    const memory = this.memory(call);
    memory.approved = true;
    if (command !== undefined) memory.commands.add(command);
    const access: OutsideAccess = capability.policyClass === "read_only" ? "read" : "write";
    for (const p of external) memory.external.push({ dir: await folderOf(p), access });
  }

  private memory(call: GateCall): CallMemory {
    let m = this.calls.get(call);
    if (!m) this.calls.set(call, (m = { approved: false, commands: new Set(), external: [], deferred: [], sensitive: new Set() }));
    return m;
  }

  private home(): string {
    return this.deps.home ?? os.homedir();
  }

  /**
   * The sensitive places, with config `[policy] sensitive_paths`. Worked out again only when the
   * home folder, the XDG folders or that list change (a config reload applies at once): every
   * tool call passes here.
   */
  private places(): SensitivePlaces {
    const env = this.userEnv();
    const extra = this.deps.config().policy.sensitive_paths;
    const key = JSON.stringify([env, extra]);
    if (this.placesMemo?.key !== key) this.placesMemo = { key, places: sensitivePlaces(env.HOME, env, extra) };
    return this.placesMemo.places;
  }

  /**
   * The variables that name the user's folders, and only those: copying the whole environment
   * on every call costs more than all the gate's other work for a read.
   */
  private userEnv(): { HOME: string; XDG_CONFIG_HOME?: string; XDG_STATE_HOME?: string } {
    const env = this.deps.env ?? process.env;
    return {
      HOME: this.home(),
      ...(env.XDG_CONFIG_HOME ? { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME } : {}),
      ...(env.XDG_STATE_HOME ? { XDG_STATE_HOME: env.XDG_STATE_HOME } : {}),
    };
  }

  /** Where a command starts, and which folders hold agent-lsp's settings for it. */
  private commandPlace(session: GateSession, cwd: string): CommandPlace {
    const settings = agentSettingsPlaces(session.root, this.userEnv());
    return { cwd, root: session.root, home: this.home(), settings, sensitive: this.places() };
  }

  /**
   * The floor a command hits. Every command passes here first, so a shell parser that cannot be
   * loaded refuses the command with the reason (nothing can be checked), never a crash.
   */
  private async floor(session: GateSession, command: string, cwd: string): Promise<Pick<FloorHit, "reason"> | undefined> {
    const policy = this.deps.config().policy;
    try {
      return await checkFloors(command, {
        cwd,
        root: session.root,
        home: this.home(),
        lifted: policy.lift_floors,
        protectedBranches: policy.protected_branches,
        currentBranch: this.deps.currentBranch ?? currentBranch,
      });
    } catch (err) {
      return { reason: `Command not checked, so not run: ${(err as Error).message}. This is a problem with the agent-lsp installation (agent-lsp doctor); tell the user.` };
    }
  }
}

/** Why a request to an MCP server is never remembered. */
export const MCP_ASKED_EVERY_TIME = "MCP servers are asked about every time";

/** Builds the gate the runtime uses. */
export function createPolicyGate(deps: PolicyGateDeps): PolicyGate {
  return new PolicyGate(deps);
}
