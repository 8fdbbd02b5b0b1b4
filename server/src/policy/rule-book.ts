/**
 * The approval rules in force: each session's own ("don't ask again" answered in it), the user's
 * pre-approvals (~/.config/agent-lsp/approvals.toml, in every project) and, while config
 * `remember_approvals` is on, the project's signed approvals.toml. Files are read afresh for each
 * decision, so deleting an entry revokes it at once, even in a running server; and for good: the
 * revocation moves the project's approvals generation on (approvals-ledger.ts), so an old file
 * restored later grants nothing.
 */
import { approvalsPath, loadApprovals, loadUserApprovals, realRootOf, saveApprovals, userApprovalsPath, type LoadedApprovals } from "./approvals-file.js";
import { LedgerMovedOn, readLedger, revoked, writeLedger, type Ledger } from "./approvals-ledger.js";
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
  /**
   * Reads and saves of the project's file run one after another, so two answers never race on
   * it, and a revocation (which signs the file again) never races a save of the older generation.
   */
  private queue: Promise<unknown> = Promise.resolve();
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
    await this.serial(() => this.persist(owner.root, rules));
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
    await this.serial(() => this.persist(root, [rule]));
  }

  /** Runs `work` after every read or save of the project's file queued before it. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
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
    const key = await this.key();
    const { loaded } = await this.serial(() => this.current(root, key));
    if (loaded.error) this.reportOnce(loaded.error);
    if (loaded.revoked.length) {
      this.reportOnce(
        `${approvalsPath(root)}: ${loaded.revoked.length} ${loaded.revoked.length === 1 ? "entry was" : "entries were"} revoked earlier (an older approvals.toml came back) and ${loaded.revoked.length === 1 ? "grants" : "grant"} nothing. Answer "Yes, don't ask again" to approve again.`,
      );
    }
    const foreign = loaded.unsigned.length - loaded.revoked.length;
    if (foreign > 0) {
      this.reportOnce(
        `${approvalsPath(root)}: ${foreign} ${foreign === 1 ? "entry was" : "entries were"} not written by agent-lsp from your answer (no valid signature) and ${foreign === 1 ? "grants" : "grant"} nothing. To pre-approve on purpose, use ${userApprovalsPath(this.places().configDir)}.`,
      );
    }
    return loaded.rules;
  }

  /**
   * The project's approvals as they stand, with the generation they are signed for. An entry
   * agent-lsp wrote that is gone from the file was revoked: the generation moves on first, then
   * the entries still there are signed again for it (so a restored old file grants nothing). A
   * record that cannot be read grants nothing.
   */
  private async current(root: string, key: Buffer | undefined): Promise<{ loaded: LoadedApprovals; generation: number; realRoot: string }> {
    const realRoot = await realRootOf(root);
    if (!key) return { loaded: await loadApprovals(root, undefined), generation: 0, realRoot };
    const { stateDir } = this.places();
    let ledger: Ledger | undefined;
    try {
      ledger = await readLedger(stateDir, realRoot);
    } catch (err) {
      // Set as the file's error: nothing grants, and nothing is saved over a generation unknown.
      const error = `The approvals record of ${realRoot} cannot be read (${(err as Error).message}): remembered approvals grant nothing.`;
      return { loaded: { rules: [], signatures: [], unsigned: [], revoked: [], error }, generation: 0, realRoot };
    }
    const generation = ledger?.generation ?? 0;
    const loaded = await loadApprovals(root, key, generation);
    if (loaded.error) return { loaded, generation, realRoot };
    // No record yet (approvals from before the ledger): what is signed now is the baseline.
    if (!ledger && loaded.signatures.length) await this.record(realRoot, { generation, entries: loaded.signatures });
    if (!ledger || !revoked(ledger, loaded.signatures)) return { loaded, generation, realRoot };
    return { loaded: await this.revoke(root, realRoot, key, generation + 1, loaded), generation: generation + 1, realRoot };
  }

  /** Moves the project to `generation` and signs the entries still in force for it again. */
  private async revoke(root: string, realRoot: string, key: Buffer, generation: number, loaded: LoadedApprovals): Promise<LoadedApprovals> {
    // The record first: from here every signature of an older generation grants nothing.
    if (!(await this.record(realRoot, { generation, entries: [] }))) return { ...loaded, rules: [], signatures: [] };
    // Everything went (the file was deleted or emptied): nothing to sign again, no file to make.
    if (!loaded.rules.length && !loaded.unsigned.length) return loaded;
    let signatures: string[];
    try {
      signatures = await saveApprovals(root, key, loaded.rules, loaded.unsigned, generation);
    } catch (err) {
      const why = err instanceof StateFolderError ? err.message : `Could not save ${approvalsPath(root)}: ${(err as Error).message}.`;
      this.reportOnce(`${why} Your remaining remembered approvals of this project are asked again.`);
      return { ...loaded, rules: [], signatures: [] };
    }
    await this.record(realRoot, { generation, entries: signatures });
    return { ...loaded, signatures };
  }

  /** Writes the project's approvals record; false (reported) when it cannot. */
  private async record(realRoot: string, ledger: Ledger): Promise<boolean> {
    try {
      await writeLedger(this.places().stateDir, realRoot, ledger);
      return true;
    } catch (err) {
      const why = err instanceof LedgerMovedOn ? err.message : `Could not write the approvals record of ${realRoot} in ${this.places().stateDir}: ${(err as Error).message}.`;
      this.reportOnce(`${why} Remembered approvals of this project not yet recorded are asked again.`);
      return false;
    }
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
    const { loaded, generation, realRoot } = await this.current(root, key);
    if (loaded.error) {
      // Never overwrite a file the user wrote and we could not read: they would lose it.
      this.reportOnce(`${loaded.error} The approval is kept for this session only.`);
      return;
    }
    const merged = [...loaded.rules];
    for (const r of rules) if (!merged.some((x) => sameRule(x, r))) merged.push(r);
    // An entry revoked earlier and approved again is written once, signed, not twice.
    const unsigned = loaded.unsigned.filter((e) => !loaded.revoked.includes(e) || !merged.some((r) => sameRule(r, e.rule)));
    try {
      // The file, then the record of what it now holds (a reader in between sees more, never less).
      const signatures = await saveApprovals(root, key, merged, unsigned, generation);
      await this.record(realRoot, { generation, entries: signatures });
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
