/**
 * The readers of programs that run code on their own terms: option syntax (clusters,
 * abbreviations), sed scripts, tar's traditional form, git's global options and subcommands,
 * make's variables, and the variables that name a program.
 */
import { describe, expect, it } from "vitest";
import { namesProgram } from "../../../server/src/policy/forms/env-names.js";
import { gitForm } from "../../../server/src/policy/forms/git.js";
import { makeForm } from "../../../server/src/policy/forms/make.js";
import { readOptions } from "../../../server/src/policy/forms/options.js";
import { scanSed } from "../../../server/src/policy/forms/sed.js";
import { tarForm } from "../../../server/src/policy/forms/tar.js";

describe("readOptions", () => {
  it("reads clusters, values and abbreviations", () => {
    const spec = { shortValue: "fC", long: ["to-command", "to-stdout", "directory"], longValue: ["to-command", "directory"] };
    expect(readOptions(["-xzf", "a.tar", "-Cdir", "--to-com=x", "--directory", "d", "--to", "op", "--", "-P"], spec)).toEqual([
      { kind: "option", name: "-x" },
      { kind: "option", name: "-z" },
      { kind: "option", name: "-f", value: "a.tar" },
      { kind: "option", name: "-C", value: "dir" },
      { kind: "option", name: "--to-command", value: "x" },
      { kind: "option", name: "--directory", value: "d" },
      { kind: "option", name: "--to" },
      { kind: "operand", word: "op" },
      { kind: "operand", word: "-P" },
    ]);
  });
});

describe("sed scripts", () => {
  it.each([
    ["s/a/b/g", { runs: false, writes: [], reads: [] }],
    ["s/a/b/e", { runs: true, writes: [], reads: [] }],
    ["s|a|b|w out.txt", { runs: false, writes: ["out.txt"], reads: [] }],
    ["1e id", { runs: true, writes: [], reads: [] }],
    ["/x/,$ { p; w log\n}", { runs: false, writes: ["log"], reads: [] }],
    ["$r ~/.ssh/id_rsa", { runs: false, writes: [], reads: ["~/.ssh/id_rsa"] }],
    ["s/[/]/x/e", { runs: true, writes: [], reads: [] }],
    ["\\%a%d;y/abc/xyz/;a hello; e not a command\n=", { runs: false, writes: [], reads: [] }],
    ["0~3 !{ N; P; D }", { runs: false, writes: [], reads: [] }],
  ])("%j", (script, expected) => {
    expect(scanSed(script)).toEqual(expected);
  });

  it("cannot read a broken script", () => {
    expect(scanSed("s/a/b")).toBeUndefined();
    expect(scanSed("k")).toBeUndefined();
  });
});

describe("tar", () => {
  it("reads the traditional form and -C", () => {
    expect(tarForm(["xzfC", "a.tgz", "out", "member"])).toEqual({ places: [{ word: "out", what: "tar -C" }], operands: [{ word: "member", base: "out" }] });
    expect(tarForm(["-cf", "k.tar", "-C", "/h", ".ssh", "-C", "/p", "x"]).operands).toEqual([
      { word: ".ssh", base: "/h" },
      { word: "x", base: "/p" },
    ]);
  });

  it.each([["--to-c=x"], ["--checkpoint-action=exec=x"], ["-I", "x"], ["--use=x"], ["-P"], ["-T", "list"], ["-f", "host:a.tar"]])("%j is never remembered", (...args) => {
    expect(tarForm(["-x", ...args]).never).toBeDefined();
  });

  it.each([["--checkpoint=10"], ["--checkpoint-action=dot"], ["--force-local", "-f", "c:a.tar"], ["-f", "/tmp/a:b"]])("%j is remembered", (...args) => {
    expect(tarForm(["-x", ...args]).never).toBeUndefined();
  });
});

describe("git", () => {
  it.each([
    ["-c", "x=y", "status"],
    ["-cx=y", "status"],
    ["--git-dir=../x", "log"],
    ["config", "user.name", "x"],
    ["config", "--unset", "user.name"],
    ["config", "set", "core.pager", "x"],
    ["log", "--output", "x"],
    ["format-patch", "-o", "/tmp"],
    ["fetch", "--upload-pack=x", "origin"],
    ["clone", "--template=t", "u"],
    ["clone", "-u", "x", "u"],
    ["submodule", "foreach", "x"],
    ["difftool"],
    ["credential", "fill"],
    ["lfs", "pull"],
  ])("%j is never remembered", (...args) => {
    expect(gitForm(args).never).toBeDefined();
  });

  it.each([["status"], ["--no-pager", "log", "--cc"], ["config", "user.name"], ["config", "--get", "user.name"], ["config", "--global", "--list"], ["format-patch", "--to=a@b", "-1"], ["--exec-path"], ["-C", "sub", "diff"]])(
    "%j is remembered",
    (...args) => {
      expect(gitForm(args).never).toBeUndefined();
    },
  );

  it("names its -C folder and a new worktree's folder", () => {
    expect(gitForm(["-C", "../other", "worktree", "add", "-b", "x", "../wt"]).places).toEqual([
      { word: "../other", what: "git -C" },
      { word: "../wt", what: "git worktree add" },
    ]);
  });
});

describe("make", () => {
  it("takes -f relative to -C", () => {
    expect(makeForm(["-C", "sub", "-f", "../Makefile", "-I", "/inc"]).places).toEqual([
      { word: "sub", what: "make -C" },
      { word: "Makefile", what: "make -f" },
      { word: "/inc", what: "make -I" },
    ]);
  });

  it.each([["--eval=x"], ["-E", "x"], ["-f", "-"], ["SHELL=x"], [".SHELLFLAGS=-c"], ["CC=x"], ["X=$(shell id)"], ["X:=${y}"]])("%j is never remembered", (...args) => {
    expect(makeForm(args).never).toBeDefined();
  });

  it.each([["-j4", "all"], ["DEBUG=1", "test"], ["-k", "-f", "other.mk"]])("%j is remembered", (...args) => {
    expect(makeForm(args).never).toBeUndefined();
  });
});

describe("variables that name a program", () => {
  it.each(["PATH", "PAGER", "LESSOPEN", "GIT_PAGER", "GIT_SSH_COMMAND", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "npm_config_script_shell", "NODE_OPTIONS", "RUSTC_WRAPPER", "JAVA_TOOL_OPTIONS", "HOME", "GOFLAGS", "BASH_ENV"])("%s does", (name) => {
    expect(namesProgram(name)).toBe(true);
  });

  it.each(["NODE_ENV", "CI", "DEBUG", "LANG", "TZ", "RUST_LOG", "FORCE_COLOR", "PORT"])("%s does not", (name) => {
    expect(namesProgram(name)).toBe(false);
  });
});
