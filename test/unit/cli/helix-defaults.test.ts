/** Reading the installed Helix's default servers: `hx --health <language>` and the languages.toml built into hx. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { embeddedLanguagesToml, languageServersIn, namesInHealth, parseHealthServers } from "../../../server/src/cli/helix-defaults.js";

describe("namesInHealth", () => {
  it.each([
    ["helix 25.01.1", false],
    ["helix 24.07", false],
    ["helix 25.07.1", true],
    ["helix 25.10", true],
    ["helix 26.01 (abc)", true],
  ])("%s", (version, names) => expect(namesInHealth(version)).toBe(names));
});

describe("parseHealthServers", () => {
  it("the names of hx --health <language>, none, and a language Helix does not know", () => {
    const out = "Configured language servers:\n  ✘ ty: 'ty' not found in $PATH\n  ✓ ruff: /usr/bin/ruff\nConfigured debug adapter: None\n";
    expect(parseHealthServers(out, "python")).toEqual(["ty", "ruff"]);
    expect(parseHealthServers("Configured language servers: None\nConfigured debug adapter: None\n", "adl")).toEqual([]);
    expect(() => parseHealthServers("Language 'nope' not found\nDid you mean one of these: ...\n", "nope")).toThrow(/does not know the language "nope": Language 'nope' not found/);
  });
});

/** The start of Helix's languages.toml as hx carries it: other strings run straight into it and after it. */
const SHIPPED = [
  "# Language support configuration.",
  "# See the languages documentation: https://docs.helix-editor.com/master/languages.html",
  "",
  "[language-server]",
  'jedi = { command = "jedi-language-server" }',
  "",
  "[[language]]",
  'name = "python"',
  'scope = "source.python"',
  'language-servers = ["ruff", "jedi", "pylsp"]',
  "# TODO: pyls needs utf-8 offsets",
  'indent = { tab-width = 4, unit = "    " }',
  "",
  "[[grammar]]",
  'name = "python"',
  "",
  "[[language]]",
  'name = "typescript"',
  "language-servers = [",
  '  { name = "typescript-language-server", except-features = ["format"] }, # ts',
  '  "biome",',
  "]",
  "",
  "[[language]]",
  'name = "adl"',
  'scope = "source.adl"',
  "",
  "[[language]]",
  'name = "pythonish"',
  'language-servers = ["other"]',
].join("\n");

describe("the languages.toml built into hx", () => {
  it("each language's server names, in order; none for a language without the key", () => {
    expect(languageServersIn(SHIPPED, "python")).toEqual(["ruff", "jedi", "pylsp"]);
    expect(languageServersIn(SHIPPED, "typescript")).toEqual(["typescript-language-server", "biome"]);
    expect(languageServersIn(SHIPPED, "adl")).toEqual([]);
    expect(() => languageServersIn(SHIPPED, "cobol")).toThrow(/has no language "cobol"/);
  });

  it("is found inside an executable's bytes; a script or a file without it has none", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-hx-bin-"));
    try {
      const exe = path.join(dir, "hx");
      writeFileSync(exe, Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01\0\0\0rodata-before", "latin1"), Buffer.from(SHIPPED), Buffer.from("after\0\x01\x02", "latin1")]));
      expect(languageServersIn(embeddedLanguagesToml(exe)!, "python")).toEqual(["ruff", "jedi", "pylsp"]);
      writeFileSync(exe, `#!/bin/sh\n# ${SHIPPED}`);
      expect(embeddedLanguagesToml(exe)).toBeUndefined();
      writeFileSync(exe, "\x7fELF no configuration here");
      expect(embeddedLanguagesToml(exe)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
