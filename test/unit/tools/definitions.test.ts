import { mkdirSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { definitionsOf } from "../../../server/src/tools/definitions/index.js";
import { listCodeDefinitionNamesTool } from "../../../server/src/tools/files/list-code-definition-names.js";
import { makeHarness, type ToolHarness } from "./context.js";

/** `line depth text` per definition, for compact expectations. */
function defs(file: string, text: string): string[] {
  return (definitionsOf(file, text) ?? []).map((d) => `${d.line} ${d.depth} ${d.text}`);
}

describe("definition parsers", () => {
  it("TypeScript: functions, classes and their methods, types, arrow consts, namespaces; not strings or comments", () => {
    const text = [
      "// function commented() {}",
      "export function foo(a: string): number {",
      '  const s = "class Fake {";',
      "  return 1;",
      "}",
      "export default class Bar<T> extends Base {",
      "  private x = 1;",
      "  constructor(a: number) { super(); }",
      "  async load(id: string): Promise<void> {",
      "    if (x) { foo(); }",
      "  }",
      "  handler = async (e: Event) => {};",
      "}",
      "export interface Shape { area(): number; }",
      "export type Id = string;",
      "export const arrow = (a: number) => a * 2;",
      "const obj = { method() {} };",
      "namespace NS {",
      "  export function inner() {}",
      "}",
    ].join("\n");
    expect(defs("a.ts", text)).toEqual([
      "2 0 export function foo(a: string): number {",
      "6 0 export default class Bar<T> extends Base {",
      "8 1 constructor(a: number) { super(); }",
      "9 1 async load(id: string): Promise<void> {",
      "12 1 handler = async (e: Event) => {};",
      "14 0 export interface Shape { area(): number; }",
      "15 0 export type Id = string;",
      "16 0 export const arrow = (a: number) => a * 2;",
      "18 0 namespace NS {",
      "19 0 export function inner() {}",
    ]);
  });

  it("Python: top-level defs and classes, methods, not nested functions or docstrings", () => {
    const text = 'def top():\n    """\ndef fake():\n    """\n    def nested():\n        pass\n\nclass Foo:\n    def method(self):\n        pass\n\n    async def am(self):\n        pass\n';
    expect(defs("a.py", text)).toEqual(["1 0 def top():", "8 0 class Foo:", "9 1 def method(self):", "12 1 async def am(self):"]);
  });

  it("Go: funcs, methods with receivers and types; braces in raw strings do not count", () => {
    const text = "package x\n\ntype S struct {\n\tn int\n}\n\nfunc (s *S) Run() error {\n\tx := `{`\n\treturn nil\n}\n\nfunc main() {}\n";
    expect(defs("a.go", text)).toEqual(["3 0 type S struct {", "7 0 func (s *S) Run() error {", "12 0 func main() {}"]);
  });

  it("Rust: items, impl and trait methods; lifetimes are not char literals", () => {
    const text = "pub struct P<'a> { x: &'a str }\nimpl<'a> P<'a> {\n    pub fn new(x: &'a str) -> Self { P { x } }\n    fn c(&self) -> char { '}' }\n}\nmod m {\n    pub fn helper() {}\n}\npub trait T {\n    fn area(&self) -> f64;\n}\n";
    expect(defs("a.rs", text)).toEqual([
      "1 0 pub struct P<'a> { x: &'a str }",
      "2 0 impl<'a> P<'a> {",
      "3 1 pub fn new(x: &'a str) -> Self { P { x } }",
      "4 1 fn c(&self) -> char { '}' }",
      "6 0 mod m {",
      "7 0 pub fn helper() {}",
      "9 0 pub trait T {",
      "10 1 fn area(&self) -> f64;",
    ]);
  });

  it("Java: classes, constructors and methods, not fields or calls", () => {
    const text = "public class A extends B {\n    private int n = compute();\n    public A(int x) {\n        super(x);\n    }\n    @Override\n    public List<String> names(int a) throws E {\n        if (a > 0) { return null; }\n        return List.of(\"}\");\n    }\n}\n";
    expect(defs("A.java", text)).toEqual(["1 0 public class A extends B {", "3 1 public A(int x) {", "7 1 public List<String> names(int a) throws E {"]);
  });

  it("C/C++: function definitions (not prototypes), classes and members, inside namespaces", () => {
    const text = "#include <x>\nnamespace app {\nclass W : public B {\npublic:\n    W();\n    int size() const { return n; }\n};\nstatic int helper(int a,\n                  int b) {\n    return a;\n}\nint proto(int a);\n}\nint main(void) {\n    return 0;\n}\n";
    expect(defs("a.cpp", text)).toEqual([
      "2 0 namespace app {",
      "3 0 class W : public B {",
      "5 1 W();",
      "6 1 int size() const { return n; }",
      "8 0 static int helper(int a,",
      "14 0 int main(void) {",
    ]);
  });

  it("Ruby: modules, classes and methods, not blocks", () => {
    const text = "module M\n  class C < B\n    def initialize(x)\n      [1].each do |i|\n        puts i\n      end\n    end\n\n    def valid?\n      true\n    end\n  end\nend\n\ndef top(a)\n  a\nend\n";
    expect(defs("a.rb", text)).toEqual(["1 0 module M", "2 1 class C < B", "3 1 def initialize(x)", "9 1 def valid?", "15 0 def top(a)"]);
  });

  it("does not cover other languages", () => {
    expect(definitionsOf("notes.md", "# x")).toBeUndefined();
  });
});

let h: ToolHarness;
afterEach(() => h?.dispose());

describe("list_code_definition_names", () => {
  it("lists the definitions of the source files directly in a folder", async () => {
    h = makeHarness();
    mkdirSync(h.at("src/sub"), { recursive: true });
    writeFileSync(h.at("src/a.ts"), "export function a() {}\nclass K {\n  m() {}\n}\n");
    writeFileSync(h.at("src/b.py"), "def b():\n    pass\n");
    writeFileSync(h.at("src/readme.md"), "# no\n");
    writeFileSync(h.at("src/sub/deep.ts"), "export function deep() {}\n");
    const r = await h.run(listCodeDefinitionNamesTool, { path: "src" });
    expect(r.text).toBe("src/a.ts\n  1: export function a() {}\n  2: class K {\n    3: m() {}\n\nsrc/b.py\n  1: def b():");
  });

  it("lists one file (its open buffer when open), and refuses an uncovered type", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.go"), "package a\n");
    h.editor.open(h.at("a.go"), "package a\n\nfunc Unsaved() {}\n");
    expect((await h.run(listCodeDefinitionNamesTool, { path: "a.go" })).text).toBe("a.go\n  3: func Unsaved() {}");
    writeFileSync(h.at("n.md"), "");
    expect((await h.run(listCodeDefinitionNamesTool, { path: "n.md" })).isError).toBe(true);
    expect((await h.run(listCodeDefinitionNamesTool, { path: "missing" })).text).toBe("missing does not exist.");
  });
});
