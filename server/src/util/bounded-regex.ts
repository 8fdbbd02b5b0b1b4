/**
 * Runs a model-supplied regular expression with a time limit. A pattern such as `(a+)+$` can
 * backtrack for minutes, and on the server's one thread that would freeze the editor with it; V8
 * can interrupt a script run through `vm` with a timeout, so the test runs there.
 */
import vm from "node:vm";

/** Raised when a pattern runs longer than its limit. */
export class RegexTimeoutError extends Error {}

/** The context risky patterns run in, made on first use: a V8 context costs time and memory. */
let sandbox: { context: vm.Context; script: vm.Script } | undefined;

/** `pattern.test(text)`, stopped after `timeoutMs` with a RegexTimeoutError. */
export function boundedRegexTest(pattern: RegExp, text: string, timeoutMs = 200): boolean {
  sandbox ??= { context: vm.createContext({ re: /(?:)/, text: "" }), script: new vm.Script("re.test(text)") };
  const { context, script } = sandbox;
  context.re = pattern;
  context.text = text;
  try {
    return script.runInContext(context, { timeout: timeoutMs }) as boolean;
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new RegexTimeoutError(
        `The pattern ${pattern} ran longer than ${timeoutMs} ms and was stopped (nested quantifiers such as (a+)+ backtrack without end); use a simpler pattern.`,
      );
    }
    throw err;
  } finally {
    // Do not keep the output alive between calls.
    context.text = "";
  }
}

/**
 * True when a pattern can backtrack without end: a quantified group that itself contains a
 * quantifier, like `(a+)+`, `(\w*)*` or `(x|y+){2,}` (the shape behind almost every runaway
 * regex). Callers that test many strings use the time limit only for these, as it costs a
 * context switch per test.
 */
export function mayBacktrackWithoutEnd(pattern: RegExp): boolean {
  return /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/.test(pattern.source);
}

/** A test function for `pattern`: plain for safe patterns, time-limited for risky ones. */
export function guardedTester(pattern: RegExp, timeoutMs = 200): (text: string) => boolean {
  if (!mayBacktrackWithoutEnd(pattern)) return (text) => pattern.test(text);
  return (text) => boundedRegexTest(pattern, text, timeoutMs);
}
