/**
 * A checkout agent-lsp cannot write (a read-only mount, a folder not the user's to write) still
 * opens: its state goes to the user's state folder (util/state-folder.ts), and reading and
 * planning work as anywhere. A session in a mode that would change files hears once, at its first
 * turn, why its changes will fail here.
 */
import { isReadOnlyMode } from "../../policy/modes.js";
import { stateIsElsewhere, stateLocation } from "../../util/state-folder.js";
import type { Session } from "../session.js";

/** Sessions already told. */
const told = new WeakSet<Session>();

/** The notice for `session`, once; undefined when its project can be written or it was told. */
export function readOnlyCheckoutNotice(session: Session): string | undefined {
  if (told.has(session) || isReadOnlyMode(session.mode)) return undefined;
  let elsewhere: boolean;
  try {
    elsewhere = stateIsElsewhere(session.root);
  } catch {
    return undefined; // a state folder that cannot be used says so where it is written
  }
  if (!elsewhere) return undefined;
  told.add(session);
  return (
    `This project cannot be written (${session.root} is on a read-only file system, or not yours to write): ` +
    `in ${session.mode} mode the agent's file changes and commands that write there will fail. Switch to read_only or plan mode to read and plan here. ` +
    `agent-lsp keeps this project's conversations and logs in ${stateLocation(session.root)}.`
  );
}
