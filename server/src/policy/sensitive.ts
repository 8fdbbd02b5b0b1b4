/**
 * Sensitive locations: where credentials and the whole machine live. "Yes, don't ask again" is
 * for ordinary folders; an action on one of these is asked every time (and in `auto` mode goes to
 * the user, never to the safety check alone), and no rule is ever made for it or covers it.
 *
 * Two kinds:
 * - credential places (folders and files such as ~/.ssh, ~/.aws, ~/.netrc, agent-lsp's own config
 *   and state folders): the place and everything below it;
 * - roots (the home folder itself, `/` and the OS folders such as /etc and /usr): the folder
 *   itself and the files directly in it, because a rule for such a folder would grant everything
 *   below it. Deeper folders (/usr/include, ~/src) are ordinary and may be remembered.
 */
import path from "node:path";
import { userConfigDir, userStateDir } from "../config/user-dirs.js";
import { isInside } from "../workspace/paths.js";

/** Credential folders and files, relative to the home folder; files are those in CREDENTIAL_FILES. */
const HOME_CREDENTIALS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube",
  ".config/gcloud",
  ".config/gh",
  ".docker/config.json",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".cargo/credentials.toml",
  ".cargo/credentials",
  ".password-store",
  // The OS keyrings: GNOME/KDE on Linux, the login keychain on macOS.
  ".local/share/keyrings",
  ".local/share/kwalletd",
  "Library/Keychains",
] as const;

/** The entries of HOME_CREDENTIALS that are files, not folders (for the prompt's wording). */
const CREDENTIAL_FILES = new Set([".docker/config.json", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".cargo/credentials.toml", ".cargo/credentials"]);

/** Folders of the operating system: a rule for one would grant the machine. */
const SYSTEM_ROOTS = [
  "/",
  "/etc",
  "/usr",
  "/var",
  "/boot",
  "/root",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/opt",
  "/proc",
  "/sys",
  "/dev",
  "/System",
  "/Library",
  "/private",
  "C:\\",
  "C:\\Windows",
  "C:\\Program Files",
] as const;

/** The sensitive places of one user, resolved to absolute paths. */
export interface SensitivePlaces {
  home: string;
  /** Credential folders and files: the place and everything below it. */
  credentials: string[];
  /** Those of `credentials` that are files. */
  credentialFiles: string[];
  /** Roots other than home: the folder itself and the files directly in it. */
  systemRoots: string[];
}

/** What makes a path sensitive, for the prompt's first words. */
export interface Sensitivity {
  kind: "credential" | "home" | "system";
  /** "a credential file", "your home folder", "a system file"... */
  what: string;
}

/**
 * The places for a user: the built-in list, agent-lsp's own config and state folders, and the
 * extra places of config `[policy] sensitive_paths` (absolute, or starting with `~/`).
 */
export function sensitivePlaces(home: string, env: NodeJS.ProcessEnv, extra: readonly string[] = []): SensitivePlaces {
  const fromHome = (p: string) => path.join(home, p);
  const credentials = [
    ...HOME_CREDENTIALS.map(fromHome),
    userConfigDir({ HOME: home, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME }),
    userStateDir({ HOME: home, XDG_STATE_HOME: env.XDG_STATE_HOME }),
    ...extra.map((p) => expandTilde(p, home)).filter((p) => path.isAbsolute(p)),
  ];
  return {
    home,
    credentials: [...new Set(credentials.map((p) => path.normalize(p)))],
    credentialFiles: [...CREDENTIAL_FILES].map(fromHome),
    systemRoots: [...SYSTEM_ROOTS],
  };
}

/**
 * Why `abs` is sensitive, or undefined for an ordinary path. A folder is sensitive when it is a
 * credential place (or inside one) or a root itself; a file also when it lies directly in a root
 * (~/.bashrc, /etc/passwd), since the only rule that could cover it would be for that root.
 */
export function sensitivityOf(abs: string, places: SensitivePlaces, type: "file" | "folder"): Sensitivity | undefined {
  const p = path.normalize(abs);
  if (places.credentials.some((c) => isInside(c, p))) {
    const folder = places.credentials.includes(p) && !places.credentialFiles.includes(p);
    return { kind: "credential", what: folder ? "a credential folder" : "a credential file" };
  }
  if (p === places.home) return { kind: "home", what: "your home folder" };
  if (places.systemRoots.includes(p)) return { kind: "system", what: "a system folder" };
  if (type === "folder") return undefined;
  if (path.dirname(p) === places.home) return { kind: "home", what: "a file in your home folder" };
  if (places.systemRoots.includes(path.dirname(p))) return { kind: "system", what: "a system file" };
  return undefined;
}

/** The first words of a prompt about a sensitive path: "Read a credential file: ~/.ssh/config". */
export function sensitiveHeadline(abs: string, access: "read" | "write" | "run", s: Sensitivity, home: string): string {
  const verb = { read: "Read", write: "Change", run: "Run a command in" }[access];
  return `${verb} ${s.what}: ${tildePath(abs, home)}`;
}

/** `~/x` for a path in the home folder, else the path. */
export function tildePath(abs: string, home: string): string {
  if (abs === home) return "~";
  return isInside(home, abs) ? `~/${path.relative(home, abs).split(path.sep).join("/")}` : abs;
}

function expandTilde(p: string, home: string): string {
  if (p === "~") return home;
  return p.startsWith("~/") ? path.join(home, p.slice(2)) : p;
}
