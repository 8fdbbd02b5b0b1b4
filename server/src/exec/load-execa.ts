/**
 * execa, loaded on the first command and kept: server start-up should not pay for it, and a
 * repeated dynamic import() still costs a trip through the module loader on every command.
 */
import { memoizeAsync } from "../util/memo.js";

/** The execa module. */
export const loadExeca = memoizeAsync(() => import("execa"));
