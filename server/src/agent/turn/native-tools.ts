/**
 * Provider-native tools: which of the provider's own tool definitions the model gets in place of
 * ours (config `[tools] provider_native`), and the rewrite of each native call onto the tool it
 * stands for, before anything runs, so the gate, checkpoints and approvals see our tool as always.
 * The call keeps its native shape in `ToolCallBlock.native`, so history replays it as written.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../config/schema.js";
import type { AssistantBlock, ToolCallBlock, ToolDefinition } from "../../vocabulary/messages.js";
import { ANTHROPIC_BASH, ANTHROPIC_MEMORY, ANTHROPIC_TEXT_EDITOR, rewriteAnthropicNative, type NativeRewrite } from "../../providers/native/anthropic.js";
import { OPENAI_APPLY_PATCH, rewriteOpenAIApplyPatch } from "../../providers/native/openai.js";
import { ANTHROPIC_COMPUTER, rewriteAnthropicComputer } from "../../providers/native/anthropic-computer.js";
import { COMPUTER_CALL, OPENAI_COMPUTER, rewriteOpenAIComputer } from "../../providers/native/openai-computer.js";
import { GEMINI_COMPUTER, rewriteGeminiComputer } from "../../providers/native/gemini-computer.js";
import type { NativeToolSpec, ProviderType } from "../../providers/provider.js";
import type { Capability, ToolResult } from "../../tools/types.js";
import type { ModelResponse } from "./provider-call.js";
import type { Session } from "../session.js";

/** The tools of one request. */
export interface PreparedTools {
  definitions: ToolDefinition[];
  native: NativeToolSpec[];
  /** Project root, for rewrites that ask whether a path is a folder. */
  root: string;
}

/** A model's calls after the rewrite: what to run, and what to answer without running. */
export interface RewrittenCalls {
  blocks: AssistantBlock[];
  calls: ToolCallBlock[];
  /** Answers for calls that must not run (a native command we do not support, bad input). */
  answers: Map<string, ToolResult>;
}

/** Our definitions for the offered tools, with native stand-ins where the provider has them. */
export function prepareTools(providerType: ProviderType, offered: Capability[], config: Config, session: Session): PreparedTools {
  const names = new Set(offered.map((c) => c.name));
  const native: NativeToolSpec[] = [];
  const replaced = new Set<string>();
  if (config.tools.provider_native && !session.nativeToolsDisabled) {
    for (const spec of nativeCandidates(providerType)) {
      // A stand-in is offered only when every tool it replaces (or sits beside) is offered:
      // the native tool must never widen what the session's mode allows.
      if (!spec.requires.every((n) => names.has(n))) continue;
      native.push({ kind: spec.kind, name: spec.name });
      for (const r of spec.replaces) replaced.add(r);
    }
  }
  const definitions = offered
    .filter((c) => !replaced.has(c.name))
    .map((c) => ({ name: c.name, description: c.description, inputSchema: c.inputSchema }));
  return { definitions, native, root: session.root };
}

interface NativeCandidate {
  kind: string;
  name: string;
  replaces: readonly string[];
  requires: readonly string[];
}

function nativeCandidates(providerType: ProviderType): NativeCandidate[] {
  if (providerType === "anthropic") {
    const list: NativeCandidate[] = [{ ...ANTHROPIC_TEXT_EDITOR, requires: ANTHROPIC_TEXT_EDITOR.replaces }];
    // No bash on Windows, where commands run under PowerShell.
    if (process.platform !== "win32") list.push({ ...ANTHROPIC_BASH, requires: ["execute_command"] });
    list.push({ ...ANTHROPIC_COMPUTER, requires: ANTHROPIC_COMPUTER.replaces });
    list.push({ ...ANTHROPIC_MEMORY, requires: ANTHROPIC_MEMORY.replaces });
    return list;
  }
  if (providerType === "openai") {
    return [
      { ...OPENAI_APPLY_PATCH, requires: OPENAI_APPLY_PATCH.replaces },
      { ...OPENAI_COMPUTER, requires: OPENAI_COMPUTER.replaces },
    ];
  }
  if (providerType === "gemini") return [{ kind: GEMINI_COMPUTER.kind, name: GEMINI_COMPUTER.name, replaces: GEMINI_COMPUTER.replaces, requires: GEMINI_COMPUTER.replaces }];
  return [];
}

/** Rewrites every native call of a response onto our tools. */
export function rewriteNativeCalls(content: AssistantBlock[], tools: PreparedTools): RewrittenCalls {
  const answers = new Map<string, ToolResult>();
  const blocks = content.map((block) => {
    if (block.type !== "tool_call" || !block.native) return block;
    const rewrite = rewriteOne(block, tools);
    if ("name" in rewrite) return { ...block, name: rewrite.name, input: rewrite.input };
    answers.set(block.id, {
      isError: "error" in rewrite,
      content: [{ type: "text", text: "error" in rewrite ? rewrite.error : rewrite.reply }],
    });
    return block;
  });
  return { blocks, calls: blocks.filter((b): b is ToolCallBlock => b.type === "tool_call"), answers };
}

function rewriteOne(block: ToolCallBlock, tools: PreparedTools): NativeRewrite {
  const native = block.native!;
  if (native.name === OPENAI_APPLY_PATCH.name && native.kind === "apply_patch_call") return rewriteOpenAIApplyPatch(native.input);
  if (native.kind === ANTHROPIC_COMPUTER.kind) return rewriteAnthropicComputer(native.name, native.input);
  if (native.kind === COMPUTER_CALL) return rewriteOpenAIComputer(native.input);
  if (native.kind === GEMINI_COMPUTER.kind) return rewriteGeminiComputer(native.name, native.input);
  return rewriteAnthropicNative(native.name, native.input, { isDirectory: (p) => isDirectory(tools.root, p), exists: (p) => exists(tools.root, p) });
}

function exists(root: string, p: string): boolean {
  try {
    statSync(path.resolve(root, p));
    return true;
  } catch {
    return false;
  }
}

function isDirectory(root: string, p: string): boolean {
  try {
    return statSync(path.resolve(root, p)).isDirectory();
  } catch {
    return false;
  }
}

/** True when a failed call looks like the provider refusing its native tool definitions. */
export function isNativeToolRejection(response: ModelResponse): boolean {
  if (response.errorStatus !== 400 && response.errorStatus !== 422) return false;
  // Only an error that names a native tool: any other 400 (a bad schema of ours, a long prompt)
  // must not quietly change which tools the session gets.
  return /text_editor|str_replace_based_edit_tool|bash_20|memory_20|apply_patch|computer_toolset|computer_use|"computer"/i.test(response.error ?? "");
}
