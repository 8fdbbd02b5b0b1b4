/**
 * Overhead of execute_command: `true` end to end through the tool layer (input validation, the
 * gate call, cwd resolution, the process manager, execa, the group/stray checks, formatting),
 * beside spawning `sh -c true` directly, in the same run. Target: ratio under 1.5. And the real
 * policy gate's decision on a typical command line (parsed with tree-sitter-bash, every program
 * remembered, its write target resolved), beside the same spawn: what reading a command costs.
 */
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { commandTools } from "../server/src/tools/commands/command-tools.js";
import { fakeToolSetup } from "../test/unit/exec/fake-context.js";
import { callOf, capability, gateFixture, never } from "../test/unit/policy/setup.js";
import { median, time } from "./stats.js";

const RUNS = 30;
const WARMUP = 5;

/** Lines `name value unit`. */
export async function benchCommands(): Promise<string[]> {
  const setup = fakeToolSetup();
  const tool = commandTools.find((t) => t.name === "execute_command")!;
  try {
    const viaTool = async () => {
      const result = await tool.execute({ command: "true" }, setup.context());
      if (result.isError) throw new Error(`execute_command "true" failed: ${JSON.stringify(result.content)}`);
    };
    const direct = () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn("/bin/sh", ["-c", "true"], { stdio: ["ignore", "pipe", "pipe"] });
        child.once("error", reject);
        child.once("close", () => resolve());
      });
    for (let i = 0; i < WARMUP; i++) {
      await viaTool();
      await direct();
    }
    // Interleaved, so drift in machine load hits both alike.
    const toolMs: number[] = [];
    const directMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      toolMs.push(await time(viaTool));
      directMs.push(await time(direct));
    }
    const t = median(toolMs);
    const d = median(directMs);
    const g = await gateDecisionMs();
    return [
      `commands.execute_command_true ${t.toFixed(2)} ms`,
      `commands.spawn_sh_true ${d.toFixed(2)} ms`,
      `commands.overhead_ratio ${(t / d).toFixed(2)} x`,
      `commands.gate_decision ${g.toFixed(3)} ms`,
      `commands.gate_decision_ratio ${(g / d).toFixed(3)} x`,
    ];
  } finally {
    setup.dispose();
  }
}

/** A typical line through the real gate with every program remembered: the median decision time. */
async function gateDecisionMs(): Promise<number> {
  const fx = gateFixture();
  const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
  const session = fx.session("ask");
  await fx.gate.book.remember(session, ["npm", "git", "grep"].map((program) => ({ kind: "program", program })), false);
  let run = 0;
  const decide = async () => {
    // A new line each time: what is measured is reading a command, not the cache of lines read.
    const command = `npm test -- --reporter=dot --run=${run++} 2>&1 | grep -v warn > test-output.txt && git status --short`;
    const decision = await fx.gate.authorize(session, callOf(exec, { command }), exec, { kind: "command", command, cwd: fx.root }, never);
    if (!decision.allowed || fx.editor.permissions.length) throw new Error(`the gate asked about ${command}`);
  };
  for (let i = 0; i < WARMUP * 4; i++) await decide();
  const ms: number[] = [];
  for (let i = 0; i < RUNS * 4; i++) ms.push(await time(decide));
  return median(ms);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchCommands()) process.stdout.write(`${line}\n`);
}
