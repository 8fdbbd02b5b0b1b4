/**
 * A request body that carries a huge tool input back to the model (the turn after a 50 MB
 * `create` sends it again in the history). Left to the SDK it is one JSON.stringify, one encode
 * and a copy of the whole, back to back: a few hundred ms in which no other request is answered.
 * Built here a piece at a time, the event loop getting turns between pieces, it goes to the SDK
 * as a Blob the HTTP client streams as it is, with the same bytes the SDK would have sent.
 */
import { breather } from "../util/breathe.js";
import { jsonPieces, stringChars } from "../util/json-pieces.js";

/** Bodies with more string data than this (in characters) are built in pieces. */
const LARGE_BODY_CHARS = 4 * 1024 * 1024;

/**
 * `JSON.stringify(params)` as a Blob of UTF-8 (type application/json), built without holding the
 * event loop; undefined when the body is small enough for the SDK to encode as usual.
 */
export async function largeJsonBody(params: object): Promise<Blob | undefined> {
  if (stringChars(params, LARGE_BODY_CHARS) <= LARGE_BODY_CHARS) return undefined;
  const parts: Buffer[] = [];
  const pause = breather(5);
  for (const text of jsonPieces(params)) {
    parts.push(Buffer.from(text, "utf8"));
    await pause();
  }
  return new Blob(parts, { type: "application/json" });
}
