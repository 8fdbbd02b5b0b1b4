/**
 * The sockets of the machine's daemons that would let a sandboxed command act outside the
 * sandbox without any network: the SSH agent (signs as the user), the D-Bus session bus (the
 * keyring's Secret Service), gpg-agent and the keyring's own sockets, docker and podman (root on
 * the machine). A Unix socket is reached through the file system, which a read-only mount does
 * not close, so each is covered like a hidden file.
 */
import path from "node:path";

/** The daemon sockets named by `env` and the usual fixed places. */
export function daemonSockets(env: NodeJS.ProcessEnv): string[] {
  const found = ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock"];
  if (env.SSH_AUTH_SOCK) found.push(env.SSH_AUTH_SOCK);
  const bus = /(?:^|;)unix:path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? "")?.[1];
  if (bus) found.push(bus);
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime) found.push(...["bus", "gnupg", "keyring", "docker.sock", "podman"].map((name) => path.join(runtime, name)));
  return found;
}
