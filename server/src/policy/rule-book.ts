/**
 * The approval rules in force: each session's own ("don't ask again" answered in it), the user's
 * pre-approvals (~/.config/agent-lsp/approvals.toml, in every project) and, while config
 * `remember_approvals` is on, the project's signed approvals.toml. Files are read afresh for each
 * decision, so deleting an entry revokes it at once, even in a running server.
 */
import { approvalsPath, loadApprovals, loadUserApprovals, saveApprovals, userApprovalsPath } from "./approvals-file.js";
import { approvalKeyPath, ensureApprovalKey, readApprovalKey } from "./approvals-key.js";
import { ruleCovers, sameRule, type ApprovalRule } from "./rules.js";
import { StateFolderError } from "../util/state-folder.js";

/** Which session and project a rule question is about. */
export interface RuleOwner {
  sessionId: string;
  root: string;
}

/** Where the user's files are. */
export interface RuleBookPlaces {
  /** The user's state folder (the signing key). */
  stateDir: string;
  /** The user's config folder (their own approvals.toml). */
  configDir: string;
  home: string;
}

/** Session rules plus the user's and the project's remembered ones. */
export class ApprovalBook {
  private readonly sessions = new Map<string, ApprovalRule[]>();
  /** Saves run one after another, so two answers never race on the file. */
  private saving: Promise<unknown> = Promise.resolve();
  private readonly reported = new Set<string>();

  /**
   * @param report tells the user about an approvals file that cannot be used (once per problem)
   * @param places where the user's key and pre-approvals are (read at each use)
   */
  constructor(
    private readonly report: (message: string) => void,
    private readonly places: () => RuleBookPlaces,
  ) {}

  /** True when some rule covers `wanted`; project rules count only when `remembered` is on. */
  async covers(owner: RuleOwner, wanted: ApprovalRule, remembered: boolean): Promise<boolean> {
    return (await this.rules(owner, remembered)).some((r) => ruleCovers(r, wanted));
  }

  /** Every rule in force for a session: its own, the user's, then (when `remembered`) the project's. */
  async rules(owner: RuleOwner, remembered: boolean): Promise<ApprovalRule[]> {
    const own = this.sessionRules(owner.sessionId);
    const user = await this.userRules(owner.root);
    return remembered ? [...own, ...user, ...(await this.projectRules(owner.root))] : [...own, ...user];
  }

  /** Adds rules to the session and, when `persist`, to the project's approvals.toml. */
  async remember(owner: RuleOwner, rules: readonly ApprovalRule[], persist: boolean): Promise<void> {
    const list = this.sessionRules(owner.sessionId);
    for (const r of rules) if (!list.some((x) => sameRule(x, r))) list.push(r);
    if (!persist || !rules.length) return;
    const save = this.saving.then(() => this.persist(owner.root, rules));
    this.saving = save.catch(() => undefined);
    await save;
  }

  /**
   * Whether the user approved starting a project-defined MCP server with exactly this command
   * line: a signed entry in the project's approvals.toml (read whatever remember_approvals says:
   * the approval is once per command line, by design) or one in the user's own approvals.toml.
   */
  async serverApproved(root: string, wanted: Extract<ApprovalRule, { kind: "mcp_server" }>): Promise<boolean> {
    const rules = [...(await this.userRules(root)), ...(await this.projectRules(root))];
    return rules.some((r) => ruleCovers(r, wanted));
  }

  /** Records the user's approval of a project-defined MCP server in the project's approvals.toml, signed. */
  async approveServer(root: string, rule: Extract<ApprovalRule, { kind: "mcp_server" }>): Promise<void> {
    const save = this.saving.then(() => this.persist(root, [rule]));
    this.saving = save.catch(() => undefined);
    await save;
  }

  /** The rules a session added (live list). */
  sessionRules(sessionId: string): ApprovalRule[] {
    let list = this.sessions.get(sessionId);
    if (!list) this.sessions.set(sessionId, (list = []));
    return list;
  }

  /** Forgets a session's rules (its rules never outlive it unless persisted). */
  forgetSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private async userRules(root: string): Promise<ApprovalRule[]> {
    const { configDir, home } = this.places();
    const loaded = await loadUserApprovals(userApprovalsPath(configDir), root, home);
    if (loaded.error) this.reportOnce(loaded.error);
    return loaded.rules;
  }

  private async projectRules(root: string): Promise<ApprovalRule[]> {
    const loaded = await loadApprovals(root, await this.key());
    if (loaded.error) this.reportOnce(loaded.error);
    if (loaded.unsigned.length) {
      this.reportOnce(
        `${approvalsPath(root)}: ${loaded.unsigned.length} ${loaded.unsigned.length === 1 ? "entry was" : "entries were"} not written by agent-lsp from your answer (no valid signature) and ${loaded.unsigned.length === 1 ? "grants" : "grant"} nothing. To pre-approve on purpose, use ${userApprovalsPath(this.places().configDir)}.`,
      );
    }
    return loaded.rules;
  }

  /** The signing key, or undefined when it cannot be read (reported: then nothing is signed). */
  private async key(): Promise<Buffer | undefined> {
    const { stateDir } = this.places();
    try {
      return await readApprovalKey(stateDir);
    } catch (err) {
      this.reportOnce(`${approvalKeyPath(stateDir)} cannot be read (${(err as Error).message}): remembered approvals grant nothing.`);
      return undefined;
    }
  }

  private async persist(root: string, rules: readonly ApprovalRule[]): Promise<void> {
    let key: Buffer;
    try {
      key = await ensureApprovalKey(this.places().stateDir);
    } catch (err) {
      this.reportOnce(`Could not make the approvals key in ${this.places().stateDir}: ${(err as Error).message}. The approval is kept for this session only.`);
      return;
    }
    const loaded = await loadApprovals(root, key);
    if (loaded.error) {
      // Never overwrite a file the user wrote and we could not read: they would lose it.
      this.reportOnce(`${loaded.error} The approval is kept for this session only.`);
      return;
    }
    const merged = [...loaded.rules];
    for (const r of rules) if (!merged.some((x) => sameRule(x, r))) merged.push(r);
    try {
      await saveApprovals(root, key, merged, loaded.unsigned);
    } catch (err) {
      // A state fault already says what and why (a full disk, a link refused).
      const why = err instanceof StateFolderError ? err.message : `Could not save ${approvalsPath(root)}: ${(err as Error).message}.`;
      this.reportOnce(`${why} The approval is kept for this session only.`);
    }
  }

  private reportOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.report(message);
  }
}
