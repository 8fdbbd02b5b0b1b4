/**
 * The approval rules in force: each session's own ("don't ask again" answered in it) and, while
 * config `remember_approvals` is on, the project's approvals.toml. The file is read afresh for
 * each decision, so deleting an entry revokes it at once, even in a running server.
 */
import { approvalsPath, loadApprovals, saveApprovals } from "./approvals-file.js";
import { ruleCovers, sameRule, type ApprovalRule } from "./rules.js";

/** Which session and project a rule question is about. */
export interface RuleOwner {
  sessionId: string;
  root: string;
}

/** Session rules plus the project's remembered ones. */
export class ApprovalBook {
  private readonly sessions = new Map<string, ApprovalRule[]>();
  /** Saves run one after another, so two answers never race on the file. */
  private saving: Promise<unknown> = Promise.resolve();
  private readonly reported = new Set<string>();

  /** @param report tells the user about an approvals file that cannot be used (once per problem) */
  constructor(private readonly report: (message: string) => void) {}

  /** True when some rule covers `wanted`; project rules count only when `remembered` is on. */
  async covers(owner: RuleOwner, wanted: ApprovalRule, remembered: boolean): Promise<boolean> {
    if (this.sessionRules(owner.sessionId).some((r) => ruleCovers(r, wanted))) return true;
    if (!remembered) return false;
    return (await this.projectRules(owner.root)).some((r) => ruleCovers(r, wanted));
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

  private async projectRules(root: string): Promise<ApprovalRule[]> {
    const loaded = await loadApprovals(root);
    if (loaded.error) this.reportOnce(loaded.error);
    return loaded.rules;
  }

  private async persist(root: string, rules: readonly ApprovalRule[]): Promise<void> {
    const loaded = await loadApprovals(root);
    if (loaded.error) {
      // Never overwrite a file the user wrote and we could not read: they would lose it.
      this.reportOnce(`${loaded.error} The approval is kept for this session only.`);
      return;
    }
    const merged = [...loaded.rules];
    for (const r of rules) if (!merged.some((x) => sameRule(x, r))) merged.push(r);
    try {
      await saveApprovals(root, merged);
    } catch (err) {
      this.reportOnce(`Could not save ${approvalsPath(root)}: ${(err as Error).message}. The approval is kept for this session only.`);
    }
  }

  private reportOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.report(message);
  }
}
