/**
 * Renders the key tables of docs/configuration.md from the schema (config/schema.ts), so the
 * docs can never name a key the server does not have, or miss one. The prose around the tables
 * is written by hand; each table sits between `<!-- keys: NAME -->` and `<!-- /keys -->`, where
 * NAME is `top` (top-level keys), a table's name (`retry`, `policy`), `providers.NAME`, or a table
 * of tables inside such a one (`mcp_servers.NAME.tools.NAME`).
 */
import { z } from "zod";
import { configSchema, type KeyDoc } from "./schema.js";

/** Every table of keys the docs must show, by marker name. */
export function renderKeyTables(): Map<string, string> {
  const tables = new Map<string, string>();
  const top: [string, z.ZodType][] = [];
  for (const [name, schema] of Object.entries(configSchema().shape as Record<string, z.ZodType>)) {
    const inner = unwrapped(schema);
    if (inner instanceof z.ZodObject) tables.set(name, renderTable(Object.entries(inner.shape as Record<string, z.ZodType>)));
    else if (inner instanceof z.ZodRecord) addRecordTables(tables, `${name}.NAME`, objectOf(inner.valueType as z.ZodType));
    else top.push([name, schema]);
  }
  return new Map([["top", renderTable(top)], ...tables]);
}

/** The table of a record's values, and those of records of tables among its keys. */
function addRecordTables(tables: Map<string, string>, name: string, value: z.ZodObject<Record<string, z.ZodType>>): void {
  const rows = Object.entries(value.shape);
  tables.set(name, renderTable(rows));
  for (const [key, schema] of rows) {
    const inner = unwrapped(schema);
    if (inner instanceof z.ZodRecord && unwrapped(inner.valueType as z.ZodType) instanceof z.ZodObject) addRecordTables(tables, `${name}.${key}.NAME`, objectOf(inner.valueType as z.ZodType));
    // A table inside each value (`mcp_servers.NAME.oauth`).
    if (inner instanceof z.ZodObject) tables.set(`${name}.${key}`, renderTable(Object.entries(inner.shape as Record<string, z.ZodType>)));
  }
}

/** Replaces every marked table of `doc` with its rendering; throws naming a table the doc lacks. */
export function updateKeyTables(doc: string): string {
  let out = doc;
  for (const [name, table] of renderKeyTables()) {
    const re = new RegExp(`(<!-- keys: ${name.replaceAll(".", "\\.")} -->\\n)[\\s\\S]*?(<!-- /keys -->)`);
    if (!re.test(out)) throw new Error(`docs/configuration.md has no "<!-- keys: ${name} -->" ... "<!-- /keys -->" block for the [${name}] keys.`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${table}${close}`);
  }
  return out;
}

function renderTable(rows: [string, z.ZodType][]): string {
  const lines = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"];
  for (const [name, schema] of rows) {
    const meta = schema.meta() as KeyDoc | undefined;
    if (!meta) throw new Error(`config key ${name} has no docs in config/schema.ts`);
    lines.push(`| \`${name}\` | ${meta.type} | ${meta.shown ?? shownDefault(schema)} | ${meta.doc} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** The default as TOML would write it, in backticks. */
function shownDefault(schema: z.ZodType): string {
  const value = schema.parse(undefined) as unknown;
  const toml = (v: unknown): string => (Array.isArray(v) ? `[${v.map(toml).join(", ")}]` : JSON.stringify(v));
  return `\`${toml(value)}\``;
}

function unwrapped(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional ? unwrapped(schema.unwrap() as z.ZodType) : schema;
}

function objectOf(schema: z.ZodType): z.ZodObject<Record<string, z.ZodType>> {
  const inner = unwrapped(schema);
  if (!(inner instanceof z.ZodObject)) throw new Error("a config record must hold tables");
  return inner as z.ZodObject<Record<string, z.ZodType>>;
}
