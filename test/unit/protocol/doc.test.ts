/** docs/protocol.md is generated from the method table; this keeps it from drifting. */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderProtocolDoc } from "../../../server/src/protocol/doc.js";
import { METHODS } from "../../../server/src/protocol/methods.js";

const DOC = fileURLToPath(new URL("../../../docs/protocol.md", import.meta.url));

describe("docs/protocol.md", () => {
  it("matches the method table", () => {
    const rendered = renderProtocolDoc();
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, "utf8")).toBe(rendered);
  });

  it.each(METHODS.filter((m) => m.params).map((m) => [m.method, m] as const))("%s example params pass its schema", (_name, m) => {
    expect(m.params!.safeParse(m.example.params).success).toBe(true);
  });
});
