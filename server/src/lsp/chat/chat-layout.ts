/**
 * The chat file as pieces with an owner each: the server's (the transcript: headings, answers,
 * blocks, as the server recorded them) and the user's (the draft under the last `## You`, the
 * lines under a waiting block where an answer or a reason goes). The layout knows what the
 * buffer has at each piece's place (`have`) and what it should have (the server's record), and
 * keeps that knowledge through the buffer's changes:
 *
 * - `align` explains a text piece by piece: each server piece must read its record (or what was
 *   last written of it), each user piece takes what lies up to the next server piece. When that
 *   works the layout is exact, whatever order the changes came in.
 * - `track` follows a change that cannot be explained that way (the user undid part of an
 *   answer, typed inside the transcript): the changed characters go to the piece they fall in,
 *   a user piece first at a boundary, so the damage stays where it happened and only that piece
 *   is put back.
 *
 * `edits` are what the buffer needs to read as `desired`: one replacement per piece that
 * differs, cut to whole lines. Pure: strings in, strings out.
 */
import { textHunks } from "../text-hunks.js";

/** Who owns a piece of the chat file. */
export type Owner = "server" | "user";

/** A piece as it is added. */
export interface PieceInit {
  key: string;
  owner: Owner;
  /** Server: its record. User: what the server puts there first (an empty line to write on). */
  text: string;
  /** The buffer has it already (a chat file read at start). */
  present?: boolean;
}

/** One replacement of the current text's characters [start, end). */
export interface OffsetEdit {
  start: number;
  end: number;
  text: string;
}

/** What the server makes of a user piece's text (clear a sent prompt, add a quote), until it lands. */
export type UserChange = (have: string) => string;

interface Piece {
  key: string;
  owner: Owner;
  /** Server: the record. */
  want: string | undefined;
  /** User: what the server changes there, until an edit with it lands. */
  change?: UserChange;
  /** Server: what the buffer last had of it as the server wrote it. */
  written: string;
  /**
   * Server: what the edits sent since it was last written put there, newest last (the record
   * may have grown since; an editor may report an older one after a newer was sent).
   */
  sent: string[];
  /** User: the change the last edit sent carried (a later one waits for the next edit). */
  sentChange?: UserChange;
  /** What the buffer has at this piece's place. */
  have: string;
}

/** The pieces of one chat file, in order. */
export class ChatLayout {
  private pieces: Piece[] = [];

  constructor(initial: PieceInit[] = []) {
    for (const init of initial) this.insert(init);
  }

  /** Adds a piece before the piece `before` (at the end without one). */
  insert(init: PieceInit, before?: string): void {
    if (this.find(init.key)) throw new Error(`chat layout: piece ${init.key} exists`);
    const present = init.present === true;
    const piece: Piece =
      init.owner === "server"
        ? { key: init.key, owner: "server", want: init.text, written: present ? init.text : "", have: present ? init.text : "", sent: [] }
        : // A new user piece gets its first text where it is empty: what the user wrote first stays.
          { key: init.key, owner: "user", want: undefined, written: "", have: present ? init.text : "", sent: [], ...(present ? {} : { change: (have: string) => have || init.text }) };
    const at = before === undefined ? -1 : this.pieces.findIndex((p) => p.key === before);
    if (at < 0) this.pieces.push(piece);
    else this.pieces.splice(at, 0, piece);
  }

  /** Whether a piece exists. */
  has(key: string): boolean {
    return this.find(key) !== undefined;
  }

  /** The keys in order. */
  keys(): string[] {
    return this.pieces.map((p) => p.key);
  }

  /** The owner of a piece. */
  owner(key: string): Owner | undefined {
    return this.find(key)?.owner;
  }

  /** A server piece's record, or what the buffer has of a user piece. */
  text(key: string): string {
    const p = this.get(key);
    return p.owner === "server" ? p.want! : p.have;
  }

  /** Adds to the end of a server piece's record. */
  append(key: string, text: string): void {
    const p = this.get(key);
    if (p.owner !== "server") throw new Error(`chat layout: ${key} is the user's`);
    p.want += text;
  }

  /** Replaces a server piece's record. */
  set(key: string, text: string): void {
    const p = this.get(key);
    if (p.owner !== "server") throw new Error(`chat layout: ${key} is the user's`);
    p.want = text;
  }

  /** Changes a user piece's text (worked out from what it has when the edit is made). */
  change(key: string, change: UserChange): void {
    const p = this.get(key);
    const earlier = p.change;
    p.change = earlier ? (have) => change(earlier(have)) : change;
  }

  /** The last edit sent landed: the user pieces' changes it carried are done (later ones are not). */
  landed(): void {
    for (const p of this.pieces) {
      if (p.change && p.change === p.sentChange) delete p.change;
      delete p.sentChange;
    }
  }

  /** A user piece becomes part of the record as it reads now, ending its line. */
  freeze(key: string): void {
    const p = this.get(key);
    if (p.owner === "server") return;
    p.owner = "server";
    p.want = complete(p.change ? p.change(p.have) : p.have);
    delete p.change;
    p.written = p.have;
  }

  /** The text the buffer has, as the layout knows it. */
  current(): string {
    return this.pieces.map((p) => p.have).join("");
  }

  /** The text the buffer should have. */
  desired(): string {
    return this.pieces.map(rendered).join("");
  }

  /** Whether the buffer has everything the server wrote and wants. */
  inSync(): boolean {
    return this.pieces.every((p) => p.have === rendered(p));
  }

  /** Server pieces whose text in the buffer is none the server wrote or sent: the user changed them. */
  damaged(): string[] {
    return this.pieces.filter((p) => p.owner === "server" && !serverTexts(p).includes(p.have)).map((p) => p.key);
  }

  /** The edits of `edits()` are being sent: what they put in each piece is the server's too. */
  markSent(): void {
    for (const p of this.pieces) {
      if (p.owner === "server") p.sent = [...p.sent.slice(-(MAX_SENT - 1)), complete(p.want!)];
      else p.sentChange = p.change;
    }
  }

  /** The piece at character `offset` of the current text (the one starting there at a boundary). */
  pieceAt(offset: number): string | undefined {
    let start = 0;
    for (const p of this.pieces) {
      const end = start + p.have.length;
      if (offset < end || (offset === end && p === this.pieces.at(-1))) return p.key;
      start = end;
    }
    return this.pieces.at(-1)?.key;
  }

  /** Where a piece is in the current text. */
  span(key: string): { start: number; end: number } {
    let start = 0;
    for (const p of this.pieces) {
      if (p.key === key) return { start, end: start + p.have.length };
      start += p.have.length;
    }
    throw new Error(`chat layout: no piece ${key}`);
  }

  /**
   * Explains `text` piece by piece (see the module comment); on success the layout describes it
   * and true is returned, else nothing changes.
   */
  align(text: string): boolean {
    // A search with memory: a server piece may read any text the server wrote or sent there
    // (an unwritten one nothing), a user piece what lies up to where the next piece can start.
    const memo = new Map<string, string[] | null>();
    const solve = (i: number, at: number): string[] | null => {
      if (i === this.pieces.length) return at === text.length ? [] : null;
      const key = `${i}:${at}`;
      const known = memo.get(key);
      if (known !== undefined) return known;
      const p = this.pieces[i]!;
      const options =
        p.owner === "server"
          ? unique(serverTexts(p)).filter((t) => text.startsWith(t, at))
          : i === this.pieces.length - 1
            ? [text.slice(at)]
            : this.nextStarts(text, at, i + 1).map((end) => text.slice(at, end));
      let found: string[] | null = null;
      for (const option of options) {
        const rest = solve(i + 1, at + option.length);
        if (rest) {
          found = [option, ...rest];
          break;
        }
      }
      memo.set(key, found);
      return found;
    };
    const haves = solve(0, 0);
    if (!haves) return false;
    this.pieces.forEach((p, i) => this.settle(p, haves[i]!));
    return true;
  }

  /** Follows the buffer from the current text to `text` change by change (see the module comment). */
  track(text: string): void {
    const hunks = textHunks(this.current(), text);
    // From the last to the first: each hunk's offsets are the old text's, and stay valid.
    for (const h of hunks.reverse()) this.replace(h.start, h.end, h.text);
  }

  /**
   * The replacements that make the current text the desired one: one per piece that differs (or
   * per run of them that meet), cut to whole lines where the piece starts on one. In document
   * order, never touching each other.
   */
  edits(): OffsetEdit[] {
    const edits: OffsetEdit[] = [];
    let start = 0;
    for (const p of this.pieces) {
      const want = rendered(p);
      if (p.have !== want) {
        const edit = lineEdit(start, p.have, want);
        const last = edits.at(-1);
        // Edits that meet are one: two insertions at one place would land in either order.
        if (last && last.end === edit.start) {
          last.end = edit.end;
          last.text += edit.text;
        } else edits.push(edit);
      }
      start += p.have.length;
    }
    return edits;
  }

  /** Where the server piece `j` can start in `text` at or after `at` (nowhere after another user piece). */
  private nextStarts(text: string, at: number, j: number): number[] {
    const q = this.pieces[j]!;
    if (q.owner !== "server") return []; // two user pieces in a row cannot be told apart
    const starts = unique(serverTexts(q)).map((t) => (t === "" ? at : text.indexOf(t, at))).filter((n) => n >= 0);
    return unique(starts).sort((a, b) => a - b);
  }

  /** Records what the buffer has of a piece after an alignment. */
  private settle(p: Piece, have: string): void {
    p.have = have;
    if (p.owner !== "server") return;
    const at = p.sent.lastIndexOf(have);
    if (at >= 0) p.sent = p.sent.slice(at + 1); // older sends cannot come back after this one
    if (at >= 0 || have === complete(p.want!)) p.written = have;
  }

  /** One change of the current text: [start, end) became `text`. */
  private replace(start: number, end: number, text: string): void {
    const spans: { p: Piece; start: number; end: number }[] = [];
    let at = 0;
    for (const p of this.pieces) {
      spans.push({ p, start: at, end: at + p.have.length });
      at += p.have.length;
    }
    if (!spans.length) return;
    const touched = spans.filter((s) => s.start < end && s.end > start);
    const target =
      start === end || !touched.length
        ? // An insertion: the piece it falls inside, else a user piece at the boundary, else the piece before.
          (spans.find((s) => s.start < start && start < s.end) ??
          spans.find((s) => s.p.owner === "user" && s.start <= start && start <= s.end) ??
          [...spans].reverse().find((s) => s.end <= start) ??
          spans[0]!)
        : (touched.find((s) => s.p.owner === "user") ?? touched[0]!);
    for (const s of touched) {
      const from = Math.max(s.start, start) - s.start;
      const to = Math.min(s.end, end) - s.start;
      s.p.have = s.p.have.slice(0, from) + (s === target ? text : "") + s.p.have.slice(to);
    }
    if (!touched.includes(target)) {
      const at = Math.min(Math.max(start - target.start, 0), target.p.have.length);
      target.p.have = target.p.have.slice(0, at) + text + target.p.have.slice(at);
    }
  }

  private find(key: string): Piece | undefined {
    return this.pieces.find((p) => p.key === key);
  }

  private get(key: string): Piece {
    const p = this.find(key);
    if (!p) throw new Error(`chat layout: no piece ${key}`);
    return p;
  }
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Sends remembered per piece while their reports are due. */
const MAX_SENT = 16;

/** A text that ends its last line (empty stays empty). */
export function complete(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** The texts a server piece may have in the buffer as the server left it: its record, the last sent, the last written. */
function serverTexts(p: Piece): string[] {
  return [complete(p.want!), ...[...p.sent].reverse(), p.written];
}

/** What the buffer should have at a piece's place. */
function rendered(p: Piece): string {
  return p.owner === "server" ? complete(p.want!) : p.change ? p.change(p.have) : p.have;
}

/**
 * The replacement of a piece's text `have` (starting at `start`) by `want`, leaving out the
 * whole lines both begin and end with.
 */
function lineEdit(start: number, have: string, want: string): OffsetEdit {
  let head = 0;
  const max = Math.min(have.length, want.length);
  for (let i = 0; i < max && have.charCodeAt(i) === want.charCodeAt(i); i++) if (have[i] === "\n") head = i + 1;
  let tail = 0;
  for (let k = 1; k <= max - head && have.charCodeAt(have.length - k) === want.charCodeAt(want.length - k); k++) {
    // The kept end must start a line in both: the character before it ends one.
    if (have[have.length - k - 1] === "\n" && want[want.length - k - 1] === "\n") tail = k;
  }
  return { start: start + head, end: start + have.length - tail, text: want.slice(head, want.length - tail) };
}
