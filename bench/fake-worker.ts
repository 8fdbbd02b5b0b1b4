/**
 * The fake provider in a process of its own, for benchmarks that time the server's answers from
 * this one: scripting a 50 MB turn (its JSON, its chunks) is synchronous work that, in the same
 * process, would hold the pings and count as the server's delay.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFakeProvider } from "../test/helpers/fake-provider/index.js";
import type { FakeTurn } from "../test/helpers/fake-provider/types.js";

/** The fake as the bench drives it. */
export interface WorkerFake {
  url: string;
  /** Scripts the next turns; resolves once the fake has them. */
  enqueue(...turns: FakeTurn[]): Promise<void>;
  close(): Promise<void>;
}

type Message = { kind: "enqueue"; turns: FakeTurn[] } | { kind: "close" };

/** Starts the fake in a child process (run through tsx, as the bench is). */
export async function startWorkerFake(): Promise<WorkerFake> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const replies: Array<(value: unknown) => void> = [];
  child.on("message", (m) => replies.shift()?.(m));
  const next = () => new Promise((resolve) => replies.push(resolve));
  const { url } = (await next()) as { url: string };
  return {
    url,
    async enqueue(...turns) {
      child.send({ kind: "enqueue", turns } satisfies Message);
      await next();
    },
    async close() {
      child.send({ kind: "close" } satisfies Message);
      await next();
      child.kill();
    },
  };
}

if (process.argv.includes("--serve") && process.send) {
  const fake = await startFakeProvider();
  process.on("message", async (m: Message) => {
    if (m.kind === "enqueue") fake.enqueue(...m.turns);
    else await fake.close();
    process.send!({ done: true });
  });
  process.send({ url: fake.url });
}
