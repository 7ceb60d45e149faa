import { describe, expect, it } from "vitest";
import { MAX_SESSIONS, Sessions, TICKET_TTL_MS } from "./sessions.js";

describe("Sessions", () => {
  it("trades a ticket once for a session token", () => {
    const sessions = new Sessions();
    const ticket = sessions.mintTicket();
    const first = sessions.exchange(ticket);
    expect("token" in first && sessions.isSession(first.token)).toBe(true);
    expect(sessions.exchange(ticket)).toEqual({
      error: "this ticket is unknown or used already: ask for a new one: run svc-host ui",
    });
  });

  it("a ticket works within its minute, not after", () => {
    let now = 1000;
    const sessions = new Sessions(() => now);
    const late = sessions.mintTicket();
    const onTime = sessions.mintTicket();
    now += TICKET_TTL_MS - 1;
    expect("token" in sessions.exchange(onTime)).toBe(true);
    now += 1;
    expect(sessions.exchange(late)).toEqual({
      error: "this ticket expired (they last a minute): ask for a new one: run svc-host ui",
    });
  });

  it("refuses junk and unknown tokens", () => {
    const sessions = new Sessions();
    expect(sessions.exchange(undefined)).toEqual({ error: "no ticket: ask for a new one: run svc-host ui" });
    expect(sessions.exchange("x".repeat(101))).toEqual({ error: "no ticket: ask for a new one: run svc-host ui" });
    expect(sessions.isSession("guess")).toBe(false);
  });

  it(`keeps at most ${MAX_SESSIONS} sessions, forgetting the oldest`, () => {
    const sessions = new Sessions();
    const tokens = Array.from(
      { length: MAX_SESSIONS + 1 },
      () => (sessions.exchange(sessions.mintTicket()) as { token: string }).token,
    );
    expect(sessions.isSession(tokens[0])).toBe(false);
    expect(sessions.isSession(tokens[1])).toBe(true);
    expect(sessions.isSession(tokens[MAX_SESSIONS])).toBe(true);
  });
});
