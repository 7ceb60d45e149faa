import { describe, expect, it } from "vitest";
import type { UiExtension } from "../wire.js";
import { rowState, splitError } from "./ext-row.js";

const ext = (extra: Partial<UiExtension> = {}): UiExtension => ({
  id: "com.example.x",
  title: "X",
  source: "user",
  enabled: true,
  status: "loaded",
  reach: [],
  preferences: [],
  tools: [],
  denials: [],
  signIns: [],
  ...extra,
});
const token = { name: "token", type: "password" as const, title: "Token", required: true, value: { set: false } };

describe("rowState", () => {
  it("says the one thing to act on, first match wins", () => {
    expect(rowState(ext())).toEqual({ text: "on", tone: "ok" });
    expect(rowState(ext({ enabled: false, status: "broken" }))).toEqual({ text: "off", tone: "muted" });
    expect(rowState(ext({ status: "broken", preferences: [token] }))).toEqual({ text: "not working", tone: "bad" });
    expect(rowState(ext({ status: "changed", preferences: [token] }))).toEqual({
      text: "changed on disk",
      tone: "bad",
    });
    expect(rowState(ext({ enabled: false, status: "changed" }))).toEqual({ text: "off", tone: "muted" });
    expect(rowState(ext({ preferences: [token] }))).toEqual({ text: "needs an option", tone: "warn" });
    expect(rowState(ext({ preferences: [{ ...token, value: { set: true } }] })).text).toBe("on");
    expect(rowState(ext({ lastRun: { result: "error", at: 0 } }))).toEqual({ text: "last run failed", tone: "bad" });
    expect(
      rowState(
        ext({
          signIns: [
            { provider: "github", title: "GitHub", connections: [{ id: "1", connectedAt: "", needsReconnect: true }] },
          ],
        }),
      ).text,
    ).toBe("sign in again");
  });
});

describe("splitError", () => {
  it("keeps the message in the open and the stack for details", () => {
    expect(splitError("Error: no token\n    at update (index.ts:4:9)\n    at run")).toEqual({
      message: "Error: no token",
      more: "at update (index.ts:4:9)\n    at run",
    });
    expect(
      splitError("update() threw: no token at update (dist/index.js:1:95) at Lt (svc:prelude.js:2:10580)"),
    ).toEqual({
      message: "update() threw: no token",
      more: "at update (dist/index.js:1:95) at Lt (svc:prelude.js:2:10580)",
    });
    expect(splitError("manifest: svc.interval should be like 5m")).toEqual({
      message: "manifest: svc.interval should be like 5m",
    });
  });
});
