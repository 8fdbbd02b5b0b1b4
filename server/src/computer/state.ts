/**
 * What the computer tool remembers per session: where it left the mouse (to notice the user
 * moving it), whether input is stopped until the user's next message, and which batch (the calls
 * of one model message) has had a failure, after which the rest of that batch does not run.
 */

/** The computer state of one session. */
export interface ComputerSessionState {
  /** Where our last input action left the pointer, in screen pixels. */
  expectedCursor?: { x: number; y: number };
  /** Input is stopped until a user message later than this count arrives. */
  stoppedAtUserMessages?: number;
  /** The batch in which an action failed. */
  failedBatch?: string;
  /** User messages seen when this state was last used (a new one resets what the user did). */
  userMessages: number;
}

/** The computer states of every session. */
export class ComputerStates {
  private readonly bySession = new Map<string, ComputerSessionState>();

  /** The state of `sessionId`, brought up to date with how many user messages it has seen. */
  of(sessionId: string, userMessages: number): ComputerSessionState {
    let state = this.bySession.get(sessionId);
    if (!state) this.bySession.set(sessionId, (state = { userMessages }));
    if (userMessages > state.userMessages) {
      // The user spoke: input may resume, and where the mouse is now is the user's business.
      state.userMessages = userMessages;
      delete state.stoppedAtUserMessages;
      delete state.expectedCursor;
    }
    return state;
  }
}

/** How far (in pixels) the pointer may drift before it counts as the user's move. */
const CURSOR_TOLERANCE = 2;

/** True when the pointer is not where we left it. */
export function userMovedMouse(state: ComputerSessionState, now: { x: number; y: number }): boolean {
  const e = state.expectedCursor;
  return e !== undefined && (Math.abs(e.x - now.x) > CURSOR_TOLERANCE || Math.abs(e.y - now.y) > CURSOR_TOLERANCE);
}
