import { describe, expect, it } from "vitest";
import { compareRatios, failed, medianRatios, ratiosOf, report } from "../../bench/guard/compare.js";

describe("bench guard: reading ratios", () => {
  it.each([
    ["a plain ratio", "cold_start_ratio 1.23 x", { cold_start_ratio: 1.23 }],
    ["a ratio with a comment", "acp_initialize_ratio 1.30 x (lsp 1.05 x; target: acp <= lsp)", { acp_initialize_ratio: 1.3 }],
    ["a whole number", "sandbox.ratio 3 x", { "sandbox.ratio": 3 }],
    ["a time, not a ratio", "cold_start_initialize 51.2 ms", {}],
    ["a unit that only starts with x", "odd_line 2.0 xyz", {}],
    ["a count", "mcp_catalog_tools 1000", {}],
  ])("%s", (_, line, expected) => {
    expect(ratiosOf([line])).toEqual(expected);
  });

  it("takes each ratio's median over the runs, over the runs that printed it", () => {
    expect(medianRatios([{ a: 1, b: 5 }, { a: 3 }, { a: 2, b: 7 }])).toEqual({ a: 2, b: 6 });
  });
});

describe("bench guard: comparing against the record", () => {
  it.each([
    ["the same", 2, 2, "pass"],
    ["24% worse", 2, 2.48, "pass"],
    ["exactly 25% worse", 2, 2.5, "pass"],
    ["26% worse", 2, 2.52, "regressed"],
    ["twice as slow", 1.1, 2.2, "regressed"],
    ["better", 2, 1.2, "improved"],
    ["a little better", 2, 1.9, "pass"],
    ["not measured", 2, undefined, "missing"],
    ["not a number", 2, Number.NaN, "missing"],
  ] as const)("%s", (_, recorded, measured, outcome) => {
    const verdict = compareRatios({ r: recorded }, measured === undefined ? {} : { r: measured }, 0.25);
    const got = verdict.regressions.length ? "regressed" : verdict.missing.length ? "missing" : verdict.improved.length ? "improved" : "pass";
    expect(got).toBe(outcome);
    expect(failed(verdict)).toBe(outcome === "regressed" || outcome === "missing");
  });

  it("names a ratio that is not recorded yet without failing", () => {
    const verdict = compareRatios({ a: 1 }, { a: 1, b: 9 });
    expect(verdict.unrecorded).toEqual(["b"]);
    expect(failed(verdict)).toBe(false);
  });

  it("says which bench regressed and by how much", () => {
    const recorded = { cold_start_ratio: 1.2, mcp_start_inside_vs_direct: 1.0 };
    const measured = { cold_start_ratio: 1.25, mcp_start_inside_vs_direct: 1.5 };
    const lines = report(recorded, measured, compareRatios(recorded, measured));
    expect(lines).toContain("REGRESSED mcp_start_inside_vs_direct: 1.50 x against 1.00 x recorded, 50% worse (the limit is 25%)");
    expect(lines.at(-1)).toBe("bench guard: FAILED");
    expect(lines.some((l) => l.startsWith("REGRESSED cold_start_ratio"))).toBe(false);
  });
});
