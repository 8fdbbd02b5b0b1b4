/**
 * What the web tools share across calls: the session snapshots, the resolver the URL guard asks
 * (tests put one of their own here, to make hostile names resolve where they like) and the
 * current `[web]` settings. Light on purpose: the heavy parts load on the first fetch.
 */
import type { Config } from "../config/schema.js";
import type { Resolver } from "./guarded-fetch.js";
import { SnapshotStore } from "./snapshots.js";

/** The key of the web service in ToolServices. */
export const WEB_SERVICE = "web";

/** The web tools' shared state. */
export interface WebService {
  snapshots: SnapshotStore;
  /** Undefined: the system resolver. */
  resolver?: Resolver;
  /** Search endpoints in place of the public ones, by backend (tests point them at local fakes). */
  searchEndpoints?: Partial<Record<"brave" | "tavily" | "exa" | "searxng" | "duckduckgo", string>>;
  /** The current configuration (read afresh each call: a reload applies at once). */
  config(): Config;
}

/** A new web service on the system resolver. */
export function createWebService(config: () => Config): WebService {
  return { snapshots: new SnapshotStore(), config };
}

/** The web service among a runtime's services; throws when the runtime has none (a wiring bug). */
export function webServiceFrom(services: Record<string, unknown>): WebService {
  const web = services[WEB_SERVICE] as WebService | undefined;
  if (!web) throw new Error("The web tools are not set up in this runtime.");
  return web;
}
