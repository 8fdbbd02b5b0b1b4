/**
 * Signing in to a protected remote MCP server from real Neovim (0.7, 0.10 and 0.12): the server's
 * `window/showDocument` (external) reaches Neovim's own handler, which starts the system
 * browser; here `xdg-open` is a stand-in that writes the address down, and the test's "user"
 * approves at it. A Neovim that is not installed skips, or fails under AGENT_LSP_REQUIRE_ALL=1.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthServer, type AuthServer } from "../helpers/oauth/authorization-server.js";
import { startResourceServer, type ResourceServer } from "../helpers/oauth/resource-server.js";
import { approvingUser } from "../helpers/oauth/sign-in-setup.js";
import { waitFor } from "../helpers/wait.js";
import { expectPassed, findEditors, runSpec, SERVER_BUNDLE } from "./nvim-harness.js";
import { useSpecFixture } from "./run-detached.js";

const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";
let as: AuthServer;
let rs: ResourceServer;

beforeAll(async () => {
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
  as = await startAuthServer();
  rs = await startResourceServer(as);
});
afterAll(async () => {
  await rs?.close();
  await as?.close();
});

const setup = useSpecFixture();

for (const editor of findEditors()) {
  describe(editor.name, () => {
    if (!editor.available) {
      if (requireAll) it("is installed", () => void expect.fail(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`));
      else it.skip(`skipped: ${editor.reason}`, () => undefined);
      return;
    }
    it("signs in to a protected MCP server when the chat first needs it: the page opens in the browser (0.10+) or its address is shown (0.7)", { timeout: 90_000 }, async () => {
      const { fake, project } = await setup({ "notes.txt": "notes\n" });
      fake.enqueue({ text: "Signed-in answer." });
      const bin = path.join(project.home, "bin");
      const log = path.join(project.home, "browser.log");
      mkdirSync(bin, { recursive: true });
      writeFileSync(log, "");
      writeFileSync(path.join(bin, "xdg-open"), `#!/bin/sh\nprintf 'browser %s\\n' "$1" >> "${log}"\n`);
      chmodSync(path.join(bin, "xdg-open"), 0o755);
      const run = runSpec(editor, "mcp_login_spec.lua", {
        fake,
        project,
        serverOptions: { log: { level: "debug" }, mcp_servers: { remote: { url: rs.url } }, mcp: { discover_timeout_s: 10, token_store: "file" } },
        env: { PATH: `${bin}:${process.env.PATH}`, AGENT_LSP_TEST_BROWSER_LOG: log },
      });
      // The user approves in the "browser" once Neovim opened the page.
      let opened = "";
      await waitFor(() => (opened = readFileSync(log, "utf8").trim()) !== "", 40_000).catch(() => undefined);
      const [how, url] = opened.split(" ");
      if (url) await approvingUser().open(url);
      const result = await run;
      expectPassed(result, "mcp_login_spec.lua");
      // 0.10 and later declare window/showDocument and hand the page to the browser; 0.7 shows the message.
      expect(how).toBe(/^NVIM v0\.7\./.test(editor.version ?? "") ? "message" : "browser");
      expect(rs.seen.filter(Boolean).length).toBeGreaterThan(0);
      expect(fake.violations).toEqual([]);
    });
  });
}
