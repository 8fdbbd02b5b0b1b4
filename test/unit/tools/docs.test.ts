/** docs/tools.md documents every built-in tool, under its own name. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commandTools } from "../../../server/src/tools/command-tools.js";
import { fileTools } from "../../../server/src/tools/file-tools.js";
import { policyTools } from "../../../server/src/tools/policy-tools.js";

const doc = readFileSync(fileURLToPath(new URL("../../../docs/tools.md", import.meta.url)), "utf8");

describe("docs/tools.md", () => {
  it.each([...fileTools, ...commandTools, ...policyTools].map((t) => t.name))("documents %s", (name) => {
    expect(doc).toContain(`\`${name}\``);
  });
});
