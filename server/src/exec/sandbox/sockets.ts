/**
 * The sockets of the machine's daemons that would let a sandboxed command act outside the
 * sandbox without any network: the SSH agent (signs as the user), the D-Bus session and system
 * buses (the keyring's Secret Service; systemd, which starts programs outside any sandbox),
 * systemd's own private socket, gpg-agent and the keyring's sockets, and the container and VM
 * managers (docker, podman, containerd, libvirt, lxd, incus, snapd: root on the machine). A Unix
 * socket is reached through the file system, which a read-only mount does not close, so each is
 * covered like a hidden file; the user's runtime folder, where most session daemons listen, is
 * replaced by an empty private one.
 */
import os from "node:os";
import path from "node:path";

/** Sockets at fixed places; those that do not exist here are skipped by the layout. */
const FIXED_SOCKETS = [
  "/var/run/docker.sock",
  "/run/docker.sock",
  "/run/podman/podman.sock",
  "/run/containerd/containerd.sock",
  "/run/libvirt/libvirt-sock",
  "/var/run/libvirt/libvirt-sock",
  "/var/snap/lxd/common/lxd/unix.socket",
  "/var/lib/lxd/unix.socket",
  "/var/lib/incus/unix.socket",
  "/run/snapd.socket",
  "/run/dbus/system_bus_socket",
  "/var/run/dbus/system_bus_socket",
  "/run/systemd/private",
];

/** The daemon sockets named by `env` and the usual fixed places. */
export function daemonSockets(env: NodeJS.ProcessEnv): string[] {
  const found = [...FIXED_SOCKETS];
  if (env.SSH_AUTH_SOCK) found.push(env.SSH_AUTH_SOCK);
  for (const address of [env.DBUS_SESSION_BUS_ADDRESS, env.DBUS_SYSTEM_BUS_ADDRESS]) {
    const bus = /(?:^|;)unix:path=([^,;]+)/.exec(address ?? "")?.[1];
    if (bus) found.push(bus);
  }
  return found;
}

/**
 * The user's runtime folders (`$XDG_RUNTIME_DIR`, `/run/user/<uid>`): the session bus, systemd's
 * user manager (`systemd/private`: `systemd-run --user` starts anything outside the sandbox),
 * gpg-agent, the keyring, pipewire and the display. A command gets an empty private one instead.
 */
export function runtimeFolders(env: NodeJS.ProcessEnv, uid: number | null = process.getuid?.() ?? null, home: string = os.homedir()): string[] {
  const found: string[] = [];
  if (env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR)) found.push(path.resolve(env.XDG_RUNTIME_DIR));
  if (uid !== null) found.push(`/run/user/${uid}`);
  // A runtime folder set to the home (or above it) by mistake must not empty the home.
  return [...new Set(found)].filter((dir) => path.relative(dir, home).startsWith(".."));
}
