/**
 * A real Secret Service for the keyring tests: a private D-Bus session bus and gnome-keyring on
 * it, unlocked with a throwaway password, in a temporary home. The worker's
 * DBUS_SESSION_BUS_ADDRESS then points at that bus, so @napi-rs/keyring talks to it and never to
 * the developer's own keyring. Missing programs make the tests skip, or fail under
 * AGENT_LSP_REQUIRE_ALL=1 (CI installs them: .ci/run).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../wait.js";

/** A running private keyring. */
export interface PrivateKeyring {
  address: string;
  stop(): void;
}

/** Why a private keyring cannot run here, or undefined when it can. */
export function keyringMissing(): string | undefined {
  for (const program of ["dbus-daemon", "gnome-keyring-daemon", "dbus-send"]) {
    if (spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0) return `${program} is not installed (apt-get install gnome-keyring dbus dbus-x11 libsecret-1-0)`;
  }
  return undefined;
}

/** Starts the bus and the keyring, and points this process at them. */
export async function startPrivateKeyring(): Promise<PrivateKeyring> {
  const home = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-keyring-"));
  const runtime = path.join(home, "run");
  spawnSync("mkdir", ["-m", "700", "-p", runtime]);
  const env = { ...process.env, HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: path.join(home, "data") };
  const bus = spawn("dbus-daemon", ["--session", "--nofork", "--print-address=1"], { env, stdio: ["ignore", "pipe", "ignore"] });
  let address = "";
  bus.stdout!.on("data", (d: Buffer) => (address += d.toString()));
  await waitFor(() => address.includes("\n") || bus.exitCode !== null, 10_000);
  address = address.trim();
  if (!address) throw new Error("dbus-daemon did not start");
  const busEnv = { ...env, DBUS_SESSION_BUS_ADDRESS: address };
  const keyring: ChildProcess = spawn("gnome-keyring-daemon", ["--unlock", "--components=secrets", "--foreground"], { env: busEnv, stdio: ["pipe", "ignore", "ignore"] });
  keyring.stdin!.end("throwaway-test-password");
  await waitFor(() => hasSecretService(busEnv) || keyring.exitCode !== null, 15_000);
  if (!hasSecretService(busEnv)) throw new Error("gnome-keyring-daemon did not offer org.freedesktop.secrets");
  const previous = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = address;
  return {
    address,
    stop() {
      if (previous === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = previous;
      keyring.kill();
      bus.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function hasSecretService(env: NodeJS.ProcessEnv): boolean {
  const r = spawnSync("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"], { env, encoding: "utf8" });
  return r.stdout.includes("boolean true");
}
