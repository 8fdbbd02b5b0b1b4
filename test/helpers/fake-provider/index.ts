/**
 * The fake provider for tests: a local HTTP server speaking each model API's real streaming wire
 * format, scripted turn by turn, that records and validates every request.
 *
 * @example
 * const fake = await startFakeProvider();
 * fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "a.ts" } }] }, { text: "Done." });
 * // ... point the provider at fake.url and run a turn ...
 * expect(fake.violations).toEqual([]);
 * await fake.close();
 */
export { startFakeProvider, type FakeProvider } from "./server.js";
export type { FakeToolCall, FakeTurn, RecordedRequest, WireFormat, WireFormatName } from "./types.js";
