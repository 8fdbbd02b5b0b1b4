/** The event stream: per-session subscriptions, a failing subscriber isolated, unsubscribe mid-round. */
import { describe, expect, it } from "vitest";
import { SessionEvents } from "../../../server/src/editor/session-events.js";

describe("SessionEvents", () => {
  it("delivers every session's events to a general subscriber and only its own to a session one", () => {
    const events = new SessionEvents();
    const all: string[] = [];
    const one: string[] = [];
    events.subscribe((id, e) => all.push(`${id}:${e.kind}`));
    events.subscribe((id, e) => one.push(`${id}:${e.kind}`), "s-2");
    events.emit("s-1", { kind: "text", text: "a" });
    events.for("s-2")({ kind: "status", text: "b" });
    expect(all).toEqual(["s-1:text", "s-2:status"]);
    expect(one).toEqual(["s-2:status"]);
  });

  it("reports a subscriber that throws and still reaches the others", () => {
    const errors: unknown[] = [];
    const events = new SessionEvents((err) => errors.push(err));
    const seen: string[] = [];
    events.subscribe(() => {
      throw new Error("broken renderer");
    });
    events.subscribe((_id, e) => seen.push(e.kind));
    events.emit("s-1", { kind: "text", text: "a" });
    expect(seen).toEqual(["text"]);
    expect(String(errors[0])).toContain("broken renderer");
  });

  it("a subscriber that unsubscribes while an event is handed out neither skips nor repeats anyone", () => {
    const events = new SessionEvents();
    const seen: string[] = [];
    const stop = events.subscribe(() => {
      seen.push("first");
      stop();
    });
    events.subscribe(() => seen.push("second"));
    events.emit("s-1", { kind: "text", text: "a" });
    events.emit("s-1", { kind: "text", text: "b" });
    expect(seen).toEqual(["first", "second", "second"]);
  });
});
