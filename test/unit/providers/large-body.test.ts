/**
 * The request that sends a huge tool input back to the model: built a piece at a time, with the
 * bytes JSON.stringify would give; a small request is left to the SDK.
 */
import { describe, expect, it } from "vitest";
import { largeJsonBody } from "../../../server/src/providers/large-body.js";

describe("largeJsonBody", () => {
  it("is the UTF-8 of JSON.stringify for a large body, typed as JSON", async () => {
    const params = { model: "m", messages: [{ role: "assistant", content: [{ type: "tool_use", input: { path: "p", content: 'y"😀é\n'.repeat(1_000_000) } }] }], stream: true };
    const blob = await largeJsonBody(params);
    expect(blob?.type).toBe("application/json");
    expect(Buffer.from(await blob!.arrayBuffer()).equals(Buffer.from(JSON.stringify(params), "utf8"))).toBe(true);
  });

  it("leaves a small body to the SDK", async () => {
    expect(await largeJsonBody({ model: "m", messages: [{ role: "user", content: "hi" }] })).toBeUndefined();
  });
});
