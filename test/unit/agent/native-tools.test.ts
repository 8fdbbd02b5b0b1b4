/** Which provider errors turn a session's native tools off. */
import { describe, expect, it } from "vitest";
import { isNativeToolRejection } from "../../../server/src/agent/turn/native-tools.js";
import type { ModelResponse } from "../../../server/src/agent/turn/provider-call.js";

const response = (errorStatus: number, error: string): ModelResponse => ({ content: [], stop: "error", usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, error, errorStatus });

describe("isNativeToolRejection", () => {
  it.each([
    [400, "tools.0: Input tag 'text_editor_20250728' found using 'type' does not match any of the expected tags", true],
    [400, "tools.1.type: bash_20250124 is not supported for this model", true],
    [400, "Invalid value: 'apply_patch'. Supported values are: 'function'", true],
    [400, "tools.3.input_schema: JSON schema is invalid", false],
    [400, "tool_use ids must be unique", false],
    [500, "text_editor_20250728 failed internally", false],
  ])("%i %j → %s", (status, message, expected) => {
    expect(isNativeToolRejection(response(status, message))).toBe(expected);
  });
});
