/**
 * config/defaults.ts writes out the defaults so a new session need not build the whole schema:
 * it must say exactly what the schema's defaults are.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../server/src/config/defaults.js";
import { configFileSchema, configSchema } from "../../../server/src/config/schema.js";

describe("the written-out defaults", () => {
  it("are what the schema gives for an empty configuration (update config/defaults.ts when this fails)", () => {
    expect(DEFAULT_CONFIG).toStrictEqual(configSchema().parse({}));
  });

  it("name every key of the schema", () => {
    expect(Object.keys(DEFAULT_CONFIG)).toEqual(Object.keys(configSchema().shape));
  });
});

describe("a layer's schema, built for the keys it sets", () => {
  it("reports a key the configuration does not have, beside a known one", () => {
    const parsed = configFileSchema(["model", "modle"]).safeParse({ model: "a/b", modle: "x" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([expect.objectContaining({ code: "unrecognized_keys", keys: ["modle"] })]);
  });

  it("checks a table it sets as the whole schema does, without filling in defaults", () => {
    const parsed = configFileSchema(["retry"]).safeParse({ retry: { max_retries: 2 } });
    expect(parsed.data).toEqual({ retry: { max_retries: 2 } });
    const bad = configFileSchema(["retry"]).safeParse({ retry: { max_retries: -1 } });
    expect(bad.error?.issues.map((i) => i.path)).toEqual([["retry", "max_retries"]]);
  });
});
