/**
 * The CI ratio guard's arithmetic: ratios read from bench lines (`name value x ...`), medians of
 * repeated runs, and the comparison against the recorded ratios (a ratio more than the tolerance
 * above its recorded value is a regression). Pure: no I/O, so it is unit-tested on its own.
 */
import { median } from "../stats.js";

/** The ratios a bench printed: every line whose unit is `x` (`cold_start_ratio 1.23 x ...`). */
export function ratiosOf(lines: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines) {
    const m = /^(\S+) (\d+(?:\.\d+)?) x(?:\s|$)/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** Per ratio, the median over runs (a ratio missing from a run counts only where it appears). */
export function medianRatios(runs: readonly Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(names.map((n) => [n, median(runs.flatMap((r) => (n in r ? [r[n]!] : [])))]));
}

/** A ratio above its recorded value by more than the tolerance. */
export interface Regression {
  name: string;
  recorded: number;
  measured: number;
  /** How much worse, as a fraction of the recorded value (0.4 = 40% worse). */
  worse: number;
}

/** The comparison of a run against the recorded ratios. */
export interface GuardVerdict {
  regressions: Regression[];
  /** Recorded ratios this run did not print (a bench that stopped printing one fails too). */
  missing: string[];
  /** Ratios this run printed that are not recorded yet (reported, never a failure). */
  unrecorded: string[];
  /** Ratios better than recorded by more than the tolerance (time to record again). */
  improved: string[];
}

/**
 * Compares `measured` with `recorded`: lower ratios are better (each is a time against a baseline
 * of the same run), and one counts as regressed when measured > recorded × (1 + tolerance).
 */
export function compareRatios(recorded: Record<string, number>, measured: Record<string, number>, tolerance = 0.25): GuardVerdict {
  const verdict: GuardVerdict = { regressions: [], missing: [], unrecorded: [], improved: [] };
  for (const [name, was] of Object.entries(recorded)) {
    const now = measured[name];
    if (now === undefined || !Number.isFinite(now)) verdict.missing.push(name);
    else if (now > was * (1 + tolerance)) verdict.regressions.push({ name, recorded: was, measured: now, worse: now / was - 1 });
    else if (now < was * (1 - tolerance)) verdict.improved.push(name);
  }
  verdict.unrecorded = Object.keys(measured).filter((n) => !(n in recorded));
  return verdict;
}

/** Whether the guard fails. */
export function failed(verdict: GuardVerdict): boolean {
  return verdict.regressions.length > 0 || verdict.missing.length > 0;
}

/** The guard's report: one line per ratio, then what failed and by how much. */
export function report(recorded: Record<string, number>, measured: Record<string, number>, verdict: GuardVerdict, tolerance = 0.25): string[] {
  const lines = Object.keys({ ...recorded, ...measured }).map((name) => {
    const was = recorded[name];
    const now = measured[name];
    const change = was !== undefined && now !== undefined ? ` (${now >= was ? "+" : ""}${((now / was - 1) * 100).toFixed(0)}%)` : "";
    return `  ${name}: ${now?.toFixed(2) ?? "not measured"} x, recorded ${was?.toFixed(2) ?? "none"} x${change}`;
  });
  for (const r of verdict.regressions) lines.push(`REGRESSED ${r.name}: ${r.measured.toFixed(2)} x against ${r.recorded.toFixed(2)} x recorded, ${(r.worse * 100).toFixed(0)}% worse (the limit is ${(tolerance * 100).toFixed(0)}%)`);
  for (const n of verdict.missing) lines.push(`MISSING ${n}: recorded, but this run did not print it`);
  for (const n of verdict.unrecorded) lines.push(`note: ${n} is not recorded yet (npm run bench:guard -- --record)`);
  for (const n of verdict.improved) lines.push(`note: ${n} is more than ${(tolerance * 100).toFixed(0)}% better than recorded; record again to keep the guard tight`);
  lines.push(failed(verdict) ? "bench guard: FAILED" : "bench guard: passed");
  return lines;
}
