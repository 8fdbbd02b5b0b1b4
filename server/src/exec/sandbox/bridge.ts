/**
 * Inside a Linux sandbox with the filtering proxy there is no network but loopback, and the proxy
 * listens on a Unix socket bound in. The bridge is the first program the sandbox runs: it listens
 * on a free loopback port, carries each connection to the socket, and then starts the command
 * with `HTTP_PROXY`/`HTTPS_PROXY` pointing at that port; it ends as the command does, with its
 * exit code. It is Node (the server's own binary, always there) given as `-e` text, so the
 * bundle needs no file of its own and no `socat` is needed.
 */

/** The bridge program. argv: the socket, then the command and its arguments. */
const BRIDGE_SOURCE = `
const net = require("net");
const { spawn } = require("child_process");
const [socket, file, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
server.listen(0, "127.0.0.1", () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url };
  const child = spawn(file, args, { stdio: "inherit", env });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (err) => { process.stderr.write(file + ": " + err.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (require("os").constants.signals[signal] || 0)));
});
`;

/** The program line that runs `command` behind the bridge to `socket`. */
export function bridged(socket: string, command: readonly string[], node: string = process.execPath): string[] {
  return [node, "-e", BRIDGE_SOURCE, "--", socket, ...command];
}
