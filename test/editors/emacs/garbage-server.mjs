// A stand-in for a buggy server: runs the real one and passes its stdio through, until the
// client sends a prompt containing "please-send-garbage"; then, instead of passing it on, it
// writes a frame that is not JSON to stdout, as a server with a stray print would.
import { spawn } from "node:child_process";

const child = spawn(process.execPath, [process.argv[2], "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
let sent = false;
process.stdin.on("data", (chunk) => {
  if (!sent && chunk.toString().includes("please-send-garbage")) {
    sent = true;
    process.stdout.write("Content-Length: 14\r\n\r\n{not json at a");
    return;
  }
  child.stdin.write(chunk);
});
child.stdout.pipe(process.stdout);
child.on("exit", (code) => process.exit(code ?? 1));
process.stdin.on("end", () => child.stdin.end());
