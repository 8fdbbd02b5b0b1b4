/** MCP input schemas made acceptable to every provider, or refused with the reason. */
import { describe, expect, it } from "vitest";
import { normalizeToolSchema } from "../../../server/src/mcp/schema.js";

function ok(input: unknown) {
  const r = normalizeToolSchema(input);
  if (!r.ok) throw new Error(r.reason);
  return r.schema;
}

describe("normalizeToolSchema", () => {
  it("gives a tool without a schema an empty object schema", () => {
    expect(ok(undefined)).toEqual({ type: "object", properties: {} });
  });

  it("inlines local $refs and drops $schema, $defs and keywords providers reject", () => {
    const schema = ok({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      $defs: { Repo: { type: "object", properties: { owner: { type: "string", $comment: "x" } }, required: ["owner"] } },
      properties: { repo: { $ref: "#/$defs/Repo", description: "The repository" }, when: { type: "string", if: {}, then: {} } },
      required: ["repo", "nonexistent"],
      additionalProperties: false,
    });
    expect(schema).toEqual({
      type: "object",
      properties: {
        repo: { type: "object", properties: { owner: { type: "string" } }, required: ["owner"], description: "The repository" },
        when: { type: "string" },
      },
      required: ["repo"],
      additionalProperties: false,
    });
  });

  it("cuts a recursive $ref to 'any value' below the first level", () => {
    const schema = ok({
      type: "object",
      definitions: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } } } },
      properties: { root: { $ref: "#/definitions/Node" } },
    });
    expect(schema.properties).toEqual({
      root: { type: "object", properties: { children: { type: "array", items: { description: "(recursive: the same structure as its parent)" } } } },
    });
  });

  it("folds a top-level anyOf of objects into one object (Anthropic takes none at the top)", () => {
    const schema = ok({ anyOf: [{ type: "object", properties: { id: { type: "string" } }, required: ["id"] }, { type: "object", properties: { name: { type: "string" } }, required: ["name"] }] });
    expect(schema).toEqual({ type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, description: "Give the properties of one of 2 alternatives." });
  });

  it("adds type object to a schema that only has properties, and drops false properties", () => {
    expect(ok({ properties: { a: true, b: false } })).toEqual({ type: "object", properties: { a: {} } });
  });

  it.each([
    [{ type: "string" }, 'its input schema is of type "string", but tool inputs must be objects'],
    [{ type: "object", properties: { a: { $ref: "https://example.com/schema.json" } } }, "its input schema refers to https://example.com/schema.json, outside the schema"],
    [{ type: "object", properties: { a: { $ref: "#/$defs/Missing" } } }, "its input schema refers to #/$defs/Missing, which it does not define"],
    [{ type: "object", properties: { "bad name!": { type: "string" } } }, 'its input schema has a property named "bad name!", which providers do not accept'],
    [{ type: "object", properties: [1, 2] }, 'its input schema has "properties" that is not an object'],
    ["nope", "its input schema is not a JSON object"],
    [{ oneOf: [{ type: "string" }, { type: "number" }] }, "its input schema's top-level oneOf is not made of object schemas"],
  ])("refuses %j", (input, reason) => {
    expect(normalizeToolSchema(input)).toEqual({ ok: false, reason });
  });

  it("refuses a schema too large to be worth its context", () => {
    const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: "string", description: "x".repeat(30) }]));
    const r = normalizeToolSchema({ type: "object", properties });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^its input schema is \d+ characters, over the 100000 allowed$/);
  });
});
