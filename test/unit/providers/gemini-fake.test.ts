/**
 * The fake provider's Gemini format rejects what the real API rejects, so adapter tests that
 * assert "no violations" mean something.
 */
import { describe, expect, it } from "vitest";
import { fakeThoughtSignature, format } from "../../helpers/fake-provider/gemini.js";

const PATH = "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse";
const HEADERS = { "x-goog-api-key": "k" };
const ask = { role: "user", parts: [{ text: "go" }] };
const call = (name: string, extra: object = {}) => ({ functionCall: { name, args: {} }, ...extra });
const answer = (name: string) => ({ functionResponse: { name, response: { output: "x" } } });
const signed = { thoughtSignature: fakeThoughtSignature("t") };

function violations(body: object, path = PATH, headers: Record<string, string> = HEADERS): string[] {
  return format.validate(body, path, headers);
}

describe("fake Gemini format validation", () => {
  it("accepts a well-formed tool exchange", () => {
    const contents = [ask, { role: "model", parts: [call("a", signed), call("b")] }, { role: "user", parts: [answer("b"), answer("a")] }];
    expect(violations({ contents })).toEqual([]);
  });

  it.each([
    ["no key", { contents: [ask] }, PATH, {}, /API key missing/],
    ["no alt=sse", { contents: [ask] }, PATH.replace("?alt=sse", ""), HEADERS, /alt=sse/],
    ["empty contents", { contents: [] }, PATH, HEADERS, /contents: must be a non-empty array/],
    ["bad role", { contents: [{ role: "assistant", parts: [{ text: "x" }] }] }, PATH, HEADERS, /role: must be "user" or "model"/],
    ["empty parts", { contents: [{ role: "user", parts: [] }] }, PATH, HEADERS, /parts: must be a non-empty array/],
    ["two data fields", { contents: [{ role: "user", parts: [{ text: "x", inlineData: { mimeType: "image/png", data: "" } }] }] }, PATH, HEADERS, /exactly one data field/],
  ])("flags %s", (_name, body, path, headers, pattern) => {
    expect(violations(body, path, headers as Record<string, string>).join("\n")).toMatch(pattern);
  });

  it("flags a response without its call and a call without its response", () => {
    const orphan = [ask, { role: "model", parts: [{ text: "hm" }] }, { role: "user", parts: [answer("a")] }];
    expect(violations({ contents: orphan }).join("\n")).toMatch(/answers no functionCall/);
    const unanswered = [ask, { role: "model", parts: [call("a", signed)] }, { role: "user", parts: [{ text: "next" }] }];
    expect(violations({ contents: unanswered }).join("\n")).toMatch(/not answered/);
    const wrongName = [ask, { role: "model", parts: [call("a", signed)] }, { role: "user", parts: [answer("b")] }];
    expect(violations({ contents: wrongName }).join("\n")).toMatch(/functionResponse b answers no functionCall/);
    const afterModel = [ask, { role: "model", parts: [{ text: "let me look" }] }, { role: "model", parts: [call("a", signed)] }, { role: "user", parts: [answer("a")] }];
    expect(violations({ contents: afterModel }).join("\n")).toMatch(/function call turn comes immediately after a user turn/);
  });

  it("requires Gemini 3's signature on the first call of the current turn, and only valid ones", () => {
    const unsigned = [ask, { role: "model", parts: [call("a")] }, { role: "user", parts: [answer("a")] }];
    expect(violations({ contents: unsigned }).join("\n")).toMatch(/missing a thought_signature/);
    expect(violations({ contents: unsigned }, PATH.replace("gemini-3-pro-preview", "gemini-2.5-pro"))).toEqual([]);
    const foreign = [ask, { role: "model", parts: [call("a", { thoughtSignature: "anthropic-signature" })] }, { role: "user", parts: [answer("a")] }];
    expect(violations({ contents: foreign }).join("\n")).toMatch(/Thought signature is not valid/);
    const dummy = [ask, { role: "model", parts: [call("a", { thoughtSignature: "skip_thought_signature_validator" })] }, { role: "user", parts: [answer("a")] }];
    expect(violations({ contents: dummy })).toEqual([]);
  });

  it("checks function declarations: names, and JSON Schema keywords Gemini's Schema lacks", () => {
    const tools = [{
      functionDeclarations: [
        { name: "9bad name", parametersJsonSchema: { type: "object" } },
        { name: "ok", parameters: { type: "object", additionalProperties: false, properties: { p: { type: "string", const: "x" } } } },
        { name: "json", parametersJsonSchema: { type: "object", additionalProperties: false } },
        { name: "ok", parametersJsonSchema: { type: "array" } },
      ],
    }];
    const found = violations({ contents: [ask], tools }).join("\n");
    expect(found).toMatch(/"9bad name" is not a valid function name/);
    expect(found).toMatch(/parameters: Gemini's Schema has no field "additionalProperties"/);
    expect(found).toMatch(/parameters.properties.p: Gemini's Schema has no field "const"/);
    expect(found).toMatch(/functionDeclarations\[3\].name: duplicate function name ok/);
    expect(found).toMatch(/functionDeclarations\[3\].parametersJsonSchema: must describe an object/);
    expect(found).not.toMatch(/functionDeclarations\[2\]/); // JSON Schema is fine in parametersJsonSchema
  });
});
