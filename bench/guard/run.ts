/**
 * `npm run bench:guard`: the fast ratio benches (each a time against a baseline measured in the
 * same run), run ROUNDS times with the median of each ratio compared against bench/baseline.json;
 * exits 1 when a ratio is more than 25% worse than recorded (still, after two more rounds),
 * naming it and by how much.
 * `npm run bench:guard -- --record` writes the medians as the new record instead. `.ci/run` runs
 * it; it needs the built bundle (npm run build).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchAcpStart } from "../acp.js";
import { benchColdStart } from "../core.js";
import { initializeRatio } from "../mcp.js";
import { benchMcpStart } from "../mcp-start.js";
import { compareRatios, failed, medianRatios, ratiosOf, report } from "./compare.js";

const BASELINE = fileURLToPath(new URL("../baseline.json", import.meta.url));
const TOLERANCE = 0.25;

/**
 * The guard's benches: start-up ratios, seconds each, that hold still under load. (The flood's
 * and the streaming input's figures swing too much to compare within 25%; their behaviour is held
 * by tests: test/integration/flood.test.ts, large-tool-input.test.ts.)
 */
const FAST: [string, () => Promise<string[]>][] = [
  ["cold start", benchColdStart],
  ["acp start", benchAcpStart],
  ["mcp initialize", initializeRatio],
  ["mcp start", () => benchMcpStart(2)],
];

/** The recorded ratios file. */
interface Baseline {
  note: string;
  recorded: string;
  rounds: number;
  ratios: Record<string, number>;
}

async function oneRound(): Promise<Record<string, number>> {
  const lines: string[] = [];
  for (const [label, bench] of FAST) {
    const t0 = performance.now();
    lines.push(...(await bench()));
    console.error(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return ratiosOf(lines);
}

async function main(argv: string[]): Promise<number> {
  const record = argv.includes("--record");
  const rounds = Number(argv[argv.indexOf("--rounds") + 1] ?? "") || Number(process.env.BENCH_GUARD_ROUNDS ?? 3);
  const runs: Record<string, number>[] = [];
  for (let i = 1; i <= rounds; i++) {
    console.error(`bench guard: round ${i} of ${rounds}`);
    runs.push(await oneRound());
  }
  let measured = medianRatios(runs);
  if (record) {
    const baseline: Baseline = { note: "Ratios of npm run bench:guard (medians of its rounds); written by npm run bench:guard -- --record", recorded: new Date().toISOString(), rounds, ratios: measured };
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`bench guard: recorded ${Object.keys(measured).length} ratios in bench/baseline.json`);
    return 0;
  }
  const baseline = JSON.parse(readFileSync(BASELINE, "utf8")) as Baseline;
  let verdict = compareRatios(baseline.ratios, measured, TOLERANCE);
  if (failed(verdict)) {
    // A noisy moment can push one round's ratios up: two more rounds, and the medians of all.
    console.error(`bench guard: ${verdict.regressions.map((r) => r.name).join(", ") || "a ratio"} out of bounds after ${rounds} rounds; two more rounds to confirm`);
    for (let i = 0; i < 2; i++) runs.push(await oneRound());
    measured = medianRatios(runs);
    verdict = compareRatios(baseline.ratios, measured, TOLERANCE);
  }
  for (const line of report(baseline.ratios, measured, verdict, TOLERANCE)) console.log(line);
  return failed(verdict) ? 1 : 0;
}

process.exit(await main(process.argv.slice(2)));
