/**
 * "Waiting for your answer in the editor": a turn blocked on the editor says so, as a status
 * update (a chat shows it; a run started by executeCommand reports it as $/progress). Said only
 * when the wait lasts: most answers come in milliseconds and would only add noise. When it was
 * said, the end is said too, so a progress line does not go on claiming the wait.
 */

/** What the notice says while waiting and when the answer came. */
export interface WaitTexts {
  waiting: string;
  answered: string;
}

/** Prompts to the user. */
export const WAITING_FOR_USER: WaitTexts = { waiting: "Waiting for your answer in the editor…", answered: "Answered in the editor." };
/** workspace/applyEdit. */
export const WAITING_FOR_EDIT: WaitTexts = { waiting: "Waiting for the editor to apply the edit…", answered: "The editor answered the edit." };

/** Starts the notice; the returned function ends it (before `delayMs`, nothing is ever said). */
export function startWaitNotice(say: (text: string) => void, texts: WaitTexts, delayMs: number): () => void {
  let said = false;
  const timer = setTimeout(() => {
    said = true;
    say(texts.waiting);
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (said) say(texts.answered);
  };
}
