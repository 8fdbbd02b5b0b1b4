/** Shared by the safety integration tests: a harness in a given mode, and what the model was told. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

/** A harness whose sessions start in `safety` (our own tool schemas, so calls name our tools). */
export function safetyHarness(
  safety: string,
  options: { extra?: Record<string, unknown>; capabilities?: ClientCapabilities; root?: string } = {},
): Promise<AgentHarness> {
  return startAgentHarness({
    ...(options.root ? { root: options.root } : {}),
    options: { safety, tools: { provider_native: false }, ...options.extra },
    capabilities: options.capabilities ?? defaultCapabilities(),
  });
}

/** Capabilities of a client that answers agent/requestPermission itself. */
export function richCapabilities(): ClientCapabilities {
  return defaultCapabilities({ experimental: { agent: { requestPermission: true } } });
}

/** Writes a project file. */
export function writeProjectFile(h: AgentHarness, rel: string, text: string): string {
  const abs = path.join(h.root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  return abs;
}

/** Every tool result the model was sent, in order, as text. */
export function toolResultsSent(h: AgentHarness): { text: string; isError: boolean }[] {
  const seen = new Set<string>();
  const out: { text: string; isError: boolean }[] = [];
  for (const req of h.fake.requests) {
    for (const m of req.body.messages ?? []) {
      if (m.role !== "user" || !Array.isArray(m.content)) continue;
      for (const b of m.content) {
        if (b.type !== "tool_result" || seen.has(b.tool_use_id)) continue;
        seen.add(b.tool_use_id);
        const text = (b.content ?? []).map((c: { text?: string }) => c.text ?? "").join("");
        out.push({ text, isError: b.is_error === true });
      }
    }
  }
  return out;
}

/** The model requests of the turn loop (the classifier's calls are the ones without tools). */
export function classifierRequests(h: AgentHarness) {
  return h.fake.requests.filter((r) => String(r.body.system ?? "").includes("safety check of a coding agent"));
}
