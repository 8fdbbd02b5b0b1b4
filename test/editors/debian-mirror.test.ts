/**
 * test/editors/debian-mirror.sh: the install scripts take their Debian mirror from the machine's
 * own apt sources (one-line and deb822 files), never from a host written into the script.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("./debian-mirror.sh", import.meta.url));
const KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * Runs the helper against an apt folder holding `files` (paths relative to it), with dash and
 * with bash (the install scripts run under either), and checks that both say the same.
 */
function mirrorFor(files: Record<string, string>, env: Record<string, string> = {}): { out: string; err: string; status: number | null } {
  dir = mkdtempSync(path.join(tmpdir(), "agent-lsp-apt-"));
  const etc = path.join(dir, "apt");
  mkdirSync(path.join(etc, "sources.list.d"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(etc, name), text);
  writeFileSync(path.join(dir, "os-release"), 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n');
  const { AGENT_LSP_DEBIAN_MIRROR: _ignored, ...inherited } = process.env;
  const [dash, bash] = ["sh", "bash"].map((shell) => {
    const r = spawnSync(shell, [SCRIPT], {
      encoding: "utf8",
      env: { ...inherited, AGENT_LSP_APT_ETC: etc, AGENT_LSP_OS_RELEASE: path.join(dir!, "os-release"), ...env },
    });
    return { out: r.stdout.trim(), err: r.stderr.trim(), status: r.status };
  });
  expect(bash).toEqual(dash);
  return dash!;
}

const SECURITY_STANZA = `Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\nComponents: main\nSigned-By: ${KEYRING}\n`;

describe("debian-mirror.sh", () => {
  it.each<{ name: string; files: Record<string, string>; uri: string }>([
    {
      name: "a deb822 file as Debian's images ship it (comments, then the security stanza)",
      files: {
        "sources.list.d/debian.sources":
          `Types: deb\n# http://snapshot.example/archive/debian/20250520T000000Z\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: ${KEYRING}\n\n` +
          SECURITY_STANZA,
      },
      uri: "http://mirror.example/debian",
    },
    {
      name: "a one-line entry with options in brackets, after a commented-out one and a deb-src one",
      files: {
        "sources.list":
          "# deb http://old.example/debian bookworm main\n" +
          "deb-src http://src.example/debian bookworm main\n" +
          `deb [arch=amd64 signed-by=${KEYRING}] http://local.example:3142/debian/ bookworm main contrib\n`,
      },
      uri: "http://local.example:3142/debian",
    },
    {
      name: "sources.list before sources.list.d",
      files: {
        "sources.list": "deb http://first.example/debian bookworm main\n",
        "sources.list.d/a.sources": `Types: deb\nURIs: http://second.example/debian\nSuites: bookworm\nComponents: main\n`,
      },
      uri: "http://first.example/debian",
    },
    {
      name: "sources.list.d in name order, .list and .sources alike; security, updates and disabled files skipped",
      files: {
        "sources.list": "deb http://security.example/debian-security bookworm-security main\ndeb http://mirror.example/debian bookworm-updates main\n",
        "sources.list.d/a.list.disabled": "deb http://disabled.example/debian bookworm main\n",
        "sources.list.d/b.sources": SECURITY_STANZA,
        "sources.list.d/c.list": "deb http://third.example/debian bookworm main\n",
        "sources.list.d/d.sources": `Types: deb\nURIs: http://fourth.example/debian\nSuites: bookworm\nComponents: main\n`,
      },
      uri: "http://third.example/debian",
    },
    {
      name: "other vendors' repositories that reuse Debian's suite names (own keyring, inline key, no main) skipped",
      files: {
        "sources.list.d/a-vendor.list":
          "deb [signed-by=/usr/share/keyrings/vendor.gpg] https://vendor.example/debian/12/prod bookworm main\n" +
          "deb https://docker.example/linux/debian bookworm stable\n",
        "sources.list.d/b-inline.sources":
          "Types: deb\nURIs: https://inline.example/apt\nSuites: bookworm\nComponents: main\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----\n .\n mQINBGRandomKeyMaterial\n -----END PGP PUBLIC KEY BLOCK-----\n\n",
        "sources.list.d/c-debian.sources": `Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\nComponents: main\nSigned-By: ${KEYRING}\n`,
      },
      uri: "http://mirror.example/debian",
    },
    {
      name: "a disabled deb822 stanza and a cdrom entry skipped; several URIs give the first; aliases count",
      files: {
        "sources.list": "deb cdrom:[Debian 12]/ bookworm main\n",
        "sources.list.d/debian.sources":
          "Enabled: no\nTypes: deb\nURIs: http://off.example/debian\nSuites: bookworm\nComponents: main\n\n" +
          "types: deb-src deb\nuris: http://one.example/debian http://two.example/debian\nsuites: stable\ncomponents: contrib main\n",
      },
      uri: "http://one.example/debian",
    },
  ])("$name", ({ files, uri }) => {
    const r = mirrorFor(files);
    expect(r).toMatchObject({ out: uri, status: 0 });
  });

  it("prefers AGENT_LSP_DEBIAN_MIRROR", () => {
    const r = mirrorFor({ "sources.list": "deb http://mirror.example/debian bookworm main\n" }, { AGENT_LSP_DEBIAN_MIRROR: "http://override.example/debian/" });
    expect(r).toMatchObject({ out: "http://override.example/debian", status: 0 });
  });

  it("fails, naming the override, when no entry counts", () => {
    const r = mirrorFor({ "sources.list.d/node.sources": "Types: deb\nURIs: https://node.example/node_20.x\nSuites: nodistro\nComponents: main\n" });
    expect(r.status).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain("no Debian main archive entry (a 'deb' entry for bookworm with component main)");
    expect(r.err).toContain("set AGENT_LSP_DEBIAN_MIRROR");
  });

  it.skipIf(!existsSync("/etc/apt/sources.list.d"))("finds this machine's own mirror", () => {
    const { AGENT_LSP_DEBIAN_MIRROR: _ignored, ...env } = process.env;
    for (const shell of ["sh", "bash"]) {
      const r = spawnSync(shell, [SCRIPT], { encoding: "utf8", env });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toMatch(/^(https?|ftp|file):\/\/\S+$/);
    }
  });
});
