/**
 * docs/configuration.md shows every key the schema accepts, each with its type, default and
 * meaning as config/schema.ts says; its key tables are generated from the schema
 * (`UPDATE_DOCS=1 npx vitest run test/unit/config/docs.test.ts` rewrites them).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderKeyTables, updateKeyTables } from "../../../server/src/config/doc.js";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";

const DOC = fileURLToPath(new URL("../../../docs/configuration.md", import.meta.url));

describe("docs/configuration.md", () => {
  it("has the key tables the schema renders", () => {
    const doc = readFileSync(DOC, "utf8");
    const updated = updateKeyTables(doc);
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, updated);
    expect(doc).toBe(updated);
  });

  it("renders a row for every key with a default", () => {
    const rendered = [...renderKeyTables().values()].join("\n");
    const leaves = Object.entries(DEFAULT_CONFIG).flatMap(([k, v]) =>
      k === "providers" ? [] : v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : [k],
    );
    for (const leaf of leaves) expect(rendered).toContain(`| \`${leaf}\` |`);
  });
});
