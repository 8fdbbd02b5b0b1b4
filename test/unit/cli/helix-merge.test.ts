/** `agent-lsp setup helix --write`'s text-level merge into a user's languages.toml. */
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import type { HelixDefaults } from "../../../server/src/cli/helix-defaults.js";
import { HELIX_LANGUAGES, helixLanguagesSnippet, helixServerSnippet, serversFor } from "../../../server/src/cli/helix-languages.js";
import { mergeHelixLanguages } from "../../../server/src/cli/helix-merge.js";

/** A Helix's defaults as setup reads them (helix-defaults.ts), for the languages of the snippet. */
const HELIX: HelixDefaults = {
  version: "helix 25.07.1",
  source: "hx --health <language>",
  servers: {
    rust: ["rust-analyzer"],
    python: ["ty", "ruff", "jedi", "pylsp", "zuban"],
    typescript: ["typescript-language-server"],
    tsx: ["typescript-language-server"],
    javascript: ["typescript-language-server"],
    jsx: ["typescript-language-server"],
    go: ["gopls", "golangci-lint-lsp"],
    c: ["clangd"],
    cpp: ["clangd"],
    markdown: ["marksman", "markdown-oxide", "rumdl"],
  },
};
const merge = (text: string) => mergeHelixLanguages(text, HELIX);

type Lang = { name: string; "language-servers"?: unknown[] };

function languages(text: string): Lang[] {
  return (parse(text) as { language?: Lang[] }).language ?? [];
}

function serversOf(text: string, name: string): unknown[] | undefined {
  return languages(text).find((l) => l.name === name)?.["language-servers"];
}

/** Every snippet language has agent-lsp, the server table exists, and the text parses. */
function expectComplete(text: string): void {
  const data = parse(text) as { "language-server"?: Record<string, unknown> };
  expect(data["language-server"]?.["agent-lsp"]).toBeDefined();
  for (const l of HELIX_LANGUAGES) {
    const names = (serversOf(text, l.name) ?? []).map((s) => (typeof s === "string" ? s : (s as { name: string }).name));
    expect(names, l.name).toContain("agent-lsp");
  }
}

const cases: { name: string; user: string; keeps: string[]; check?: (merged: string) => void }[] = [
  {
    name: "an empty file gets the whole snippet",
    user: "",
    keeps: [],
    check: (m) => expect(serversOf(m, "go")).toEqual(["gopls", "golangci-lint-lsp", "agent-lsp"]),
  },
  {
    name: "comments, other tables and a language without language-servers",
    user: [
      "# my Helix languages",
      "[language-server.rust-analyzer.config]",
      'check.command = "clippy" # lint on save',
      "",
      "[[language]]",
      'name = "rust" # the one I use',
      "auto-format = true",
      "",
      "[language.indent]",
      "tab-width = 4",
      'unit = "    "',
      "",
    ].join("\n"),
    keeps: ["# my Helix languages", 'check.command = "clippy" # lint on save', 'name = "rust" # the one I use', "[language.indent]"],
    check: (m) => {
      expect(serversOf(m, "rust")).toEqual(["rust-analyzer", "agent-lsp"]);
      expect(m).toContain('name = "rust" # the one I use\nlanguage-servers = ["rust-analyzer", "agent-lsp"]\nauto-format = true');
      expect((languages(m).find((l) => l.name === "rust") as { indent?: unknown }).indent).toEqual({ "tab-width": 4, unit: "    " });
    },
  },
  {
    name: "a language with the user's own servers, multi-line, inline tables and comments",
    user: [
      "[[language]]",
      'name = "python"',
      "language-servers = [",
      '  "pyright", # types',
      '  { name = "ruff", only-features = ["diagnostics", "format"] } # lint',
      "]",
      "",
    ].join("\n"),
    keeps: ['"pyright", # types', "# lint"],
    check: (m) => {
      expect(serversOf(m, "python")).toEqual(["pyright", { name: "ruff", "only-features": ["diagnostics", "format"] }, "agent-lsp"]);
      expect(m).toContain('  { name = "ruff", only-features = ["diagnostics", "format"] }, # lint\n  "agent-lsp",\n]');
    },
  },
  {
    name: "single-line arrays, with and without a trailing comma, and an empty one",
    user: '[[language]]\nname = "go"\nlanguage-servers = ["gopls",]\n\n[[language]]\nname = "c"\nlanguage-servers = [ "ccls" ]\n\n[[language]]\nname = "cpp"\nlanguage-servers = []\n',
    keeps: [],
    check: (m) => {
      expect(m).toContain('language-servers = ["gopls", "agent-lsp",]');
      expect(m).toContain('language-servers = [ "ccls", "agent-lsp" ]');
      expect(serversOf(m, "cpp")).toEqual(["agent-lsp"]);
    },
  },
  {
    name: "an existing agent-lsp server and entries (a table form too) are kept as they are",
    user: [
      "[language-server.agent-lsp]",
      'command = "/opt/agent-lsp/bin/agent-lsp"',
      'config = { safety = "ask" }',
      "",
      "[[language]]",
      'name = "rust"',
      'language-servers = ["rust-analyzer", "agent-lsp"]',
      "",
      "[[language]]",
      'name = "markdown"',
      'language-servers = [{ name = "agent-lsp", except-features = ["format"] }, "marksman"]',
      "",
    ].join("\n"),
    keeps: ['command = "/opt/agent-lsp/bin/agent-lsp"', 'language-servers = ["rust-analyzer", "agent-lsp"]', 'except-features = ["format"] }, "marksman"]'],
    check: (m) => expect(m.match(/\[language-server\.agent-lsp\]/g)).toHaveLength(1),
  },
  {
    name: "the server table written in another form is recognised",
    user: '[language-server]\nagent-lsp = { command = "agent-lsp", args = ["--stdio"] }\n',
    keeps: ['agent-lsp = { command = "agent-lsp", args = ["--stdio"] }'],
    check: (m) => expect(m).not.toContain("[language-server.agent-lsp]"),
  },
  {
    name: "headers and comment signs inside strings are not taken for real ones",
    user: [
      "use-grammars = { only = [\"rust\"] }",
      "[language-server.foo]",
      "command = \"foo\"",
      "args = [\"--x=#not-a-comment\", 'C:\\path\\#x']",
      "notes = \"\"\"",
      "[[language]]",
      "name = \"go\"",
      "language-servers = [\"gopls\"] \"\"\"",
      "[[ language ]]",
      "name = 'rust'",
      "",
    ].join("\n"),
    keeps: ['args = ["--x=#not-a-comment", \'C:\\path\\#x\']', '[[language]]\nname = "go"\nlanguage-servers = ["gopls"] """'],
    check: (m) => {
      expect(serversOf(m, "rust")).toEqual(["rust-analyzer", "agent-lsp"]);
      expect(languages(m)).toHaveLength(HELIX_LANGUAGES.length);
    },
  },
  {
    name: "CRLF line endings stay CRLF, and a file without a final line break",
    user: '[[language]]\r\nname = "rust"\r\nlanguage-servers = [\r\n  "rust-analyzer"\r\n]',
    keeps: [],
    check: (m) => {
      expect(m).toContain('  "rust-analyzer",\r\n  "agent-lsp",\r\n]');
      expect(m.replace(/\r\n/g, "")).not.toContain("\n");
    },
  },
];

describe("mergeHelixLanguages", () => {
  it.each(cases)("$name", ({ user, keeps, check }) => {
    const { text, changes } = merge(user);
    expect(changes.length).toBeGreaterThan(0);
    for (const line of keeps) expect(text).toContain(line);
    expect(text.startsWith(user.replace(/\r?\n?$/, "").split(/\r?\n/)[0] ?? "")).toBe(true);
    expectComplete(text);
    check?.(text);
    // Idempotent: the merged file already has everything.
    expect(merge(text)).toMatchObject({ text, changes: [] });
  });

  it("an empty file becomes the snippet's table and blocks", () => {
    const { text, notes } = merge("");
    for (const l of HELIX_LANGUAGES) expect(serversOf(text, l.name)).toEqual(serversFor(l, HELIX.servers[l.name]!));
    expect(text).toContain("# Added by `agent-lsp setup helix`: the default servers of helix 25.07.1 plus agent-lsp.");
    expect(notes).toEqual([]);
  });

  it("a list of the user's that leaves out this Helix's defaults is kept as it is, and said", () => {
    const { text, changes, notes } = merge('[[language]]\nname = "python"\nlanguage-servers = ["ruff", "jedi", "pylsp", "agent-lsp"]\n');
    expect(serversOf(text, "python")).toEqual(["ruff", "jedi", "pylsp", "agent-lsp"]);
    expect(changes.filter((c) => c.startsWith("python"))).toEqual([]);
    expect(notes).toEqual(['python: your language-servers leaves out "ty", "zuban", default in helix 25.07.1; add them if you want them']);
  });

  it.each([
    { name: "invalid TOML", user: "[[language]\nname = ", error: /not valid TOML, so it is left as it is/ },
    { name: "languages as an inline array", user: 'language = [{ name = "rust" }]\n', error: /defines `language` inline/ },
    { name: "an inline language-server table that cannot take agent-lsp", user: 'language-server = { rust-analyzer = { command = "ra" } }\n', error: /would not be valid TOML/ },
    { name: "language-servers that is not an array", user: '[[language]]\nname = "rust"\nlanguage-servers = "rust-analyzer"\n', error: /not an array/ },
  ])("refuses $name with a clear error", ({ user, error }) => {
    expect(() => merge(user)).toThrow(error);
  });
});

describe("the Helix snippet", () => {
  it("editors/helix/languages.toml is the server entry that holds for every Helix (regenerate from helixServerSnippet())", () => {
    const file = readFileSync(new URL("../../../editors/helix/languages.toml", import.meta.url), "utf8");
    expect(file).toBe(helixServerSnippet());
    expect((parse(file) as { language?: unknown }).language).toBeUndefined();
  });

  it("keeps every language's default servers of the Helix read, adds agent-lsp once, and says which Helix", () => {
    const text = helixLanguagesSnippet(HELIX);
    expect(text).toContain("The lists below are the defaults of helix 25.07.1, read from hx --health <language>.");
    for (const l of HELIX_LANGUAGES) {
      const servers = serversOf(text, l.name)!;
      expect(servers.filter((s) => s !== "agent-lsp")).toEqual(HELIX.servers[l.name]);
      expect(servers.filter((s) => s === "agent-lsp")).toHaveLength(1);
    }
  });
});
