/**
 * An MCP tool's input schema made acceptable to every provider: local `$ref`s inlined (a
 * recursive one cut to "any value"), keywords some provider rejects removed, a top-level
 * anyOf/oneOf/allOf of objects folded into one object (Anthropic takes none at the top), and
 * the result checked: an object schema with well-formed properties. A schema that cannot be made
 * so is refused with the reason, and its tool is left out with a warning.
 */

/** The normalised schema, or why there is none. */
export type SchemaResult = { ok: true; schema: Record<string, unknown> } | { ok: false; reason: string };

/** Keywords every provider understands; anything else is dropped. */
const KEPT = new Set([
  "type",
  "description",
  "title",
  "properties",
  "required",
  "items",
  "prefixItems",
  "enum",
  "const",
  "default",
  "anyOf",
  "oneOf",
  "allOf",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "nullable",
  "examples",
]);

/** Keywords whose value is one subschema, or a list of them. */
const ONE_SCHEMA = new Set(["items", "additionalProperties"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

const MAX_DEPTH = 40;
/** Characters of JSON a schema may take: beyond this it costs more context than any tool is worth. */
const MAX_SCHEMA_CHARS = 100_000;

class SchemaError extends Error {}

/** Normalises `input` (a tool's `inputSchema` as the server sent it). */
export function normalizeToolSchema(input: unknown): SchemaResult {
  if (input === undefined || input === null) return { ok: true, schema: { type: "object", properties: {} } };
  if (!isObject(input)) return { ok: false, reason: "its input schema is not a JSON object" };
  try {
    const inlined = clean(input, input, [], 0);
    const schema = objectRoot(isObject(inlined) ? inlined : {});
    checkObject(schema);
    const size = JSON.stringify(schema).length;
    if (size > MAX_SCHEMA_CHARS) return { ok: false, reason: `its input schema is ${size} characters, over the ${MAX_SCHEMA_CHARS} allowed` };
    return { ok: true, schema };
  } catch (err) {
    if (err instanceof SchemaError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** A subschema with refs inlined and unknown keywords dropped. `true` is "any value"; `false` stays false. */
function clean(node: unknown, root: Record<string, unknown>, refs: string[], depth: number): unknown {
  if (depth > MAX_DEPTH) throw new SchemaError(`its input schema nests deeper than ${MAX_DEPTH} levels`);
  if (node === true) return {};
  if (node === false) return false;
  if (!isObject(node)) throw new SchemaError(`its input schema has ${JSON.stringify(node)} where a schema belongs`);
  if (typeof node.$ref === "string") return inlineRef(node, root, refs, depth);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) continue;
    if (key === "properties") out.properties = cleanProperties(value, root, refs, depth);
    else if (ONE_SCHEMA.has(key)) out[key] = typeof value === "boolean" && key === "additionalProperties" ? value : clean(value, root, refs, depth + 1);
    else if (SCHEMA_LISTS.has(key)) out[key] = cleanList(key, value, root, refs, depth);
    else out[key] = value;
  }
  return out;
}

function cleanProperties(value: unknown, root: Record<string, unknown>, refs: string[], depth: number): Record<string, unknown> {
  if (!isObject(value)) throw new SchemaError('its input schema has "properties" that is not an object');
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(value)) {
    const cleaned = clean(schema, root, refs, depth + 1);
    // `false` means the property may not be given: leaving it out says the same to a model.
    if (cleaned !== false) out[name] = cleaned;
  }
  return out;
}

function cleanList(key: string, value: unknown, root: Record<string, unknown>, refs: string[], depth: number): unknown[] {
  if (!Array.isArray(value)) throw new SchemaError(`its input schema has "${key}" that is not a list`);
  return value.map((v) => clean(v, root, refs, depth + 1)).filter((v) => v !== false);
}

/** The schema a `$ref` points at (local refs only), merged with the sibling keywords. */
function inlineRef(node: Record<string, unknown>, root: Record<string, unknown>, refs: string[], depth: number): unknown {
  const ref = node.$ref as string;
  const { $ref: _, ...siblings } = node;
  // A recursive type (a tree of nodes) cannot be written out: below the first level it is "any value".
  if (refs.includes(ref)) return { ...(clean(siblings, root, refs, depth + 1) as object), description: describeCut(siblings) };
  const target = resolvePointer(root, ref);
  const resolved = clean(target, root, [...refs, ref], depth + 1);
  if (resolved === false) return false;
  return { ...(resolved as object), ...(clean(siblings, root, refs, depth + 1) as object) };
}

function describeCut(siblings: Record<string, unknown>): string {
  const own = typeof siblings.description === "string" ? `${siblings.description} ` : "";
  return `${own}(recursive: the same structure as its parent)`.trim();
}

/** Follows a local JSON pointer (`#`, `#/$defs/x`, `#/definitions/x/properties/y`). */
function resolvePointer(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith("#")) throw new SchemaError(`its input schema refers to ${ref}, outside the schema`);
  const parts = ref
    .slice(1)
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~"));
  let cur: unknown = root;
  for (const part of parts) {
    if (!isObject(cur) || !(part in cur)) throw new SchemaError(`its input schema refers to ${ref}, which it does not define`);
    cur = cur[part];
  }
  return cur;
}

/** The root as one object schema: a top-level combination of object schemas is folded into one. */
function objectRoot(schema: Record<string, unknown>): Record<string, unknown> {
  const combinator = (["allOf", "anyOf", "oneOf"] as const).find((k) => Array.isArray(schema[k]));
  if (combinator && !schema.properties) {
    const branches = (schema[combinator] as unknown[]).filter(isObject);
    if (!branches.length || !branches.every(isObjectSchema)) throw new SchemaError(`its input schema's top-level ${combinator} is not made of object schemas`);
    const { [combinator]: _, ...rest } = schema;
    return { ...rest, ...foldObjects(branches, combinator === "allOf") };
  }
  const type = schema.type;
  if (type === undefined || type === "object" || (Array.isArray(type) && type.includes("object"))) {
    return { ...schema, type: "object", properties: schema.properties ?? {} };
  }
  throw new SchemaError(`its input schema is of type ${JSON.stringify(type)}, but tool inputs must be objects`);
}

function isObjectSchema(s: Record<string, unknown>): boolean {
  return s.type === "object" || (s.type === undefined && isObject(s.properties));
}

/** One object with every branch's properties; required: all of them (allOf) or those every branch requires. */
function foldObjects(branches: Record<string, unknown>[], all: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const b of branches) Object.assign(properties, isObject(b.properties) ? b.properties : {});
  const requiredOf = (b: Record<string, unknown>) => (Array.isArray(b.required) ? (b.required as unknown[]).filter((r): r is string => typeof r === "string") : []);
  const lists = branches.map(requiredOf);
  const required = all ? [...new Set(lists.flat())] : lists[0]!.filter((r) => lists.every((l) => l.includes(r)));
  const note = all ? undefined : `Give the properties of one of ${branches.length} alternatives.`;
  return { type: "object", properties, ...(required.length ? { required } : {}), ...(note ? { description: note } : {}) };
}

/** Checks what every provider insists on, fixing what can be fixed. */
function checkObject(schema: Record<string, unknown>): void {
  const props = schema.properties;
  if (!isObject(props)) throw new SchemaError('its input schema has "properties" that is not an object');
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) throw new SchemaError('its input schema has "required" that is not a list');
    // A required name without a property confuses models and some providers refuse it.
    const required = schema.required.filter((r): r is string => typeof r === "string" && r in props);
    if (required.length) schema.required = [...new Set(required)];
    else delete schema.required;
  }
  for (const [name, sub] of Object.entries(props)) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new SchemaError(`its input schema has a property named ${JSON.stringify(name)}, which providers do not accept`);
    if (!isObject(sub)) throw new SchemaError(`its input schema's property ${name} is not a schema`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
