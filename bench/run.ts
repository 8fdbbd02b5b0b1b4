/**
 * `npm run bench`: every benchmark, printed as `name value unit` lines so runs can be compared.
 * Speed is always reported beside a baseline measured in the same run (these machines are noisy).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchColdStart, benchIdleRss, benchLoopOverhead } from "./core.js";

type Bench = () => Promise<string[]>;

async function optional(file: string, name: string): Promise<Bench | undefined> {
  if (!existsSync(fileURLToPath(new URL(file, import.meta.url)))) return undefined;
  const mod = (await import(file)) as Record<string, Bench>;
  return mod[name];
}

const benches: [string, Bench | undefined][] = [
  ["cold start", benchColdStart],
  ["idle rss", benchIdleRss],
  ["loop overhead", () => benchLoopOverhead()],
  ["session new", await optional("./session-new.ts", "benchSessionNew")],
  ["files", await optional("./files.ts", "benchFiles")],
  ["ignore", await optional("./ignore.ts", "benchIgnore")],
  ["search rg", await optional("./search-rg.ts", "benchSearchRg")],
  ["commands", await optional("./commands.ts", "benchCommands")],
  ["sandbox", await optional("./sandbox.ts", "benchSandbox")],
  ["mcp", await optional("./mcp.ts", "benchMcp")],
  ["mcp start", await optional("./mcp-start.ts", "benchMcpStart")],
  ["large diff", await optional("./large-diff.ts", "benchLargeDiff")],
  ["tool input", await optional("./tool-input.ts", "benchToolInput")],
  ["large message", await optional("./large-message.ts", "benchLargeMessage")],
  ["events", await optional("./events.ts", "benchEvents")],
  ["web", await optional("./web.ts", "benchWeb")],
  ["computer", await optional("./computer.ts", "benchComputer")],
  ["acp", await optional("./acp.ts", "benchAcp")],
  ["language", await optional("./language.ts", "benchLanguage")],
  ["sessions", await optional("./sessions.ts", "benchSessions")],
  ["flood", await optional("./flood.ts", "benchFlood")],
  ["knowledge", await optional("./knowledge.ts", "benchKnowledge")],
];

let failed = false;
for (const [label, bench] of benches) {
  if (!bench) continue;
  try {
    for (const line of await bench()) console.log(line);
  } catch (err) {
    failed = true;
    console.error(`bench ${label} failed: ${(err as Error).stack ?? err}`);
  }
}
process.exit(failed ? 1 : 0);
