/**
 * The sensitive places a command reads (policy/sensitive.ts: credentials, the home folder and the
 * system roots), judged where each word really lands: `~` and `$HOME` expanded, globs expanded as
 * the shell would (and, statically, any credential place a pattern may name: `~/.ss?/id_rsa`),
 * symlinks in the project followed to their targets, and for a recursive read that follows links
 * (`grep -R`), every link in the folder that leads out of the project. Each is a sensitive scope:
 * asked every time, by the user even in auto mode.
 */
import path from "node:path";
import { isInside, realpathOfNearest } from "../workspace/paths.js";
import { folderOf } from "./call-facts.js";
import type { SimpleCommand } from "./command-line.js";
import { followedFolders, readWords, type ReadWord } from "./command-reads.js";
import { LINK_SCAN_BUDGET, linksLeaving, type LinkScan } from "./link-scan.js";
import { externalScope, type Scope } from "./rules.js";
import { sensitiveScopeOf } from "./sensitive-scopes.js";
import { sensitivityOf, type SensitivePlaces } from "./sensitive.js";
import { expandGlob, globMayReach, type ShellPath } from "./shell-paths.js";

/** Device files a command may read or write freely: they are no place on disk. */
export const HARMLESS_DEVICES = /^\/dev\/(null|zero|u?random|stdin|stdout|stderr|tty|fd\/\d+)$/;

const TOO_MANY_MATCHES = "a glob with too many matches to check for sensitive places is never remembered";
const TOO_LARGE_TO_SCAN = `a recursive read that follows links through more than ${LINK_SCAN_BUDGET} entries (too many to check where they lead) is never remembered`;

/** Resolves a word from a folder as the shell would (LineJudge's, with its cache). */
export type Resolve = (word: string, cwd: string, follow: boolean) => Promise<ShellPath>;

/** Judges what the commands of one line read. */
export class SensitiveReads {
  private readonly scans = new Map<string, Promise<LinkScan>>();

  constructor(
    private readonly places: SensitivePlaces,
    private readonly root: string,
    private readonly realRoot: string,
    private readonly resolve: Resolve,
  ) {}

  /** The sensitive scopes of what `cmd` reads, run in `cwd` (undefined: only absolute words can be judged). */
  async scopes(cmd: SimpleCommand, cwd: string | undefined): Promise<Scope[]> {
    const out: Scope[] = [];
    for (const w of readWords(cmd)) out.push(...(await this.word(w, cwd)));
    for (const f of followedFolders(cmd)) out.push(...(await this.followed(f, cwd)));
    return out;
  }

  /** Where a word lands, or undefined when it cannot be told (a relative word from an unknown folder). */
  private async where(w: ReadWord, cwd: string | undefined): Promise<ShellPath | undefined> {
    let from = cwd;
    if (w.base !== undefined) {
      const base = await this.where({ word: w.base }, cwd);
      from = base?.kind === "path" ? base.real : undefined;
    }
    if (from === undefined && !/^(\/|~|\$HOME|\$\{HOME\})/.test(w.word)) return undefined;
    return this.resolve(w.word, from ?? path.sep, true);
  }

  private async word(w: ReadWord, cwd: string | undefined): Promise<Scope[]> {
    const target = await this.where(w, cwd);
    if (target === undefined || target.kind === "unknown") return [];
    if (target.kind === "path") {
      if (HARMLESS_DEVICES.test(target.abs)) return [];
      const scope = await this.sensitive([target.real, target.abs], w.program === true);
      return scope ? [scope] : [];
    }
    // A pattern that may name a credential place, whether or not it exists yet.
    const reached = this.places.credentials.filter((c) => globMayReach(target.pattern, c) || globMayReach(target.realPattern, c));
    const out = (await Promise.all(reached.map((c) => this.sensitive([c], false)))).filter((s): s is Scope => s !== undefined);
    const matches = await expandGlob(target.pattern);
    if (matches === undefined) return [...out, { unremembered: TOO_MANY_MATCHES, autoAllowed: false }];
    for (const m of matches) {
      const scope = await this.sensitive([await realpathOfNearest(m), m], w.program === true);
      if (scope) out.push(scope);
    }
    return out;
  }

  /** The first sensitive scope of `paths` (real path first: the prompt names where the bytes are). */
  private async sensitive(paths: readonly string[], programOnly: boolean): Promise<Scope | undefined> {
    for (const p of new Set(paths)) {
      // Most words name no sensitive place whatever they are: only those that may are looked at on disk.
      if (!sensitivityOf(p, this.places, "file")) continue;
      const scope = await sensitiveScopeOf(p, "read", this.places, this.root);
      // A program is run, not read: only a credential place counts (`/bin/ls` is no secret).
      if (scope && (!programOnly || scope.sensitive?.kind === "credential")) return scope;
    }
    return undefined;
  }

  /** A folder read recursively through its links: each link out of the project is asked. */
  private async followed(f: ReadWord, cwd: string | undefined): Promise<Scope[]> {
    const target = await this.where(f, cwd);
    if (target === undefined || target.kind === "unknown") return [];
    const folders = target.kind === "path" ? [target.real] : await Promise.all(((await expandGlob(target.pattern)) ?? []).map((m) => realpathOfNearest(m)));
    const out: Scope[] = [];
    for (const folder of folders) {
      const scan = await this.scan(folder);
      if ("tooLarge" in scan) {
        out.push({ unremembered: TOO_LARGE_TO_SCAN, autoAllowed: false });
        continue;
      }
      for (const link of scan.leaving) {
        const scope = await this.sensitive([link], false);
        // Outside the project everything is outside: only the sensitive places count there.
        if (scope) out.push(scope);
        else if (isInside(this.realRoot, folder)) out.push(externalScope(await folderOf(link), "read"));
      }
    }
    return out;
  }

  private scan(folder: string): Promise<LinkScan> {
    let found = this.scans.get(folder);
    if (!found) this.scans.set(folder, (found = linksLeaving(folder, this.realRoot)));
    return found;
  }
}
