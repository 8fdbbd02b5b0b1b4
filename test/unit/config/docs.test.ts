/** docs/configuration.md documents every key the schema accepts. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";

const doc = readFileSync(fileURLToPath(new URL("../../../docs/configuration.md", import.meta.url)), "utf8");

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe("docs/configuration.md", () => {
  it.each(keys(DEFAULT_CONFIG as unknown as Record<string, unknown>).filter((k) => k !== "providers"))("documents %s", (key) => {
    const leaf = key.split(".").pop()!;
    const table = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : undefined;
    expect(doc).toContain(`\`${leaf}\``);
    if (table) expect(doc).toContain(`[${table}]`);
  });
});
