/** Schemas built on first use: built once, only when read, and indistinguishable from the schema. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, invalidExamples, toProviderSchema } from "../../../server/src/tools/define-tool.js";
import { builtSchema, lazySchema } from "../../../server/src/util/lazy-schema.js";

const shape = () =>
  z.object({
    path: z.string().min(1).describe("The file."),
    count: z.number().int().min(1).optional().describe("How many."),
    mode: z.enum(["a", "b"]).optional(),
  });

describe("lazySchema", () => {
  it("builds nothing until the schema is read, then builds it once", () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return shape();
    });
    expect(builds).toBe(0);
    expect(schema.safeParse({ path: "a" }).success).toBe(true);
    expect(schema.safeParse({ path: "" }).success).toBe(false);
    expect(Object.keys(schema.shape)).toEqual(["path", "count", "mode"]);
    expect(builds).toBe(1);
  });

  it("parses, fails and converts to JSON Schema exactly as the schema it stands for", () => {
    const lazy = lazySchema(shape);
    const eager = shape();
    for (const value of [{ path: "x", count: 2 }, { path: "x", count: 0 }, { count: "no" }, null]) {
      expect(JSON.stringify(lazy.safeParse(value))).toBe(JSON.stringify(eager.safeParse(value)));
    }
    expect(toProviderSchema(lazy)).toEqual(toProviderSchema(eager));
    expect(lazy instanceof z.ZodObject).toBe(true);
    expect(builtSchema(lazy)).toBe(builtSchema(lazy));
    expect(builtSchema(eager)).toBe(eager);
  });

  it("nests in other schemas, descriptions and all", () => {
    const inner = lazySchema(shape);
    const outer = z.object({ items: z.array(inner).describe("Several.") });
    expect(outer.safeParse({ items: [{ path: "a" }] }).success).toBe(true);
    expect(outer.safeParse({ items: [{ path: 1 }] }).success).toBe(false);
    expect(JSON.stringify(toProviderSchema(outer))).toBe(JSON.stringify(toProviderSchema(z.object({ items: z.array(shape()).describe("Several.") }))));
  });

  it("is what a tool validates its input with, and checks its help's examples against", async () => {
    let builds = 0;
    const tool = defineTool({
      name: "lazy_probe",
      description: "A probe.",
      input: lazySchema(() => {
        builds += 1;
        return shape();
      }),
      policyClass: "read_only",
      category: "file",
      help: { whenToUse: "Never.", examples: ['{"path": "a"}', '{"path": 3}'], failureModes: [] },
      execute: async (input) => `read ${input.path}`,
    });
    expect(builds).toBe(0);
    expect(tool.inputSchema).toEqual(toProviderSchema(shape()));
    expect(invalidExamples(tool)).toEqual([expect.stringContaining('{"path": 3}')]);
    expect(builds).toBe(1);
  });
});
