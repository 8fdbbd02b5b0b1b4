/**
 * doctor's "Sandbox:" section: whether commands run in the kernel sandbox here (and why not),
 * found out as the server finds it (exec/sandbox/probe.ts), with what `[exec]` asks of it. A
 * `required` sandbox that cannot run is an ERROR: every command would be refused.
 */
import type { Config } from "../config/schema.js";
import { sandboxAvailability } from "../exec/sandbox/probe.js";

/** The section's lines. */
export async function sandboxReport(config: Config, searchPath: string | undefined = process.env.PATH): Promise<string[]> {
  const mode = config.exec.sandbox;
  const out = ["", "Sandbox:"];
  if (mode === "off") return [...out, `  ${"off".padEnd(7)} [exec] sandbox = "off": commands run without the sandbox`];
  const available = await sandboxAvailability(searchPath);
  if (available.works) {
    out.push(`  ${"ok".padEnd(7)} ${available.kind} (${available.program}) works here: commands run sandboxed ([exec] sandbox = "${mode}")`);
    out.push(`  ${"".padEnd(7)} network: ${networkWords(config)}`);
    return out;
  }
  if (mode === "required") return [...out, `ERROR [exec] sandbox = "required" and the sandbox cannot run here (${available.why}): every command will be refused`];
  return [...out, `  ${"missing".padEnd(7)} ${available.why}: commands run without the sandbox, and every one is asked in ask mode ([exec] sandbox = "auto")`];
}

function networkWords(config: Config): string {
  if (config.exec.network === "off") return 'none ([exec] network = "off")';
  const hosts = config.exec.allow_hosts;
  return hosts.length ? `only ${hosts.join(", ")}, through the filtering proxy` : 'none: [exec] network = "allow_hosts" but [exec] allow_hosts is empty';
}
