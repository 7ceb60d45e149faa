/**
 * The host's openURL: always a display line; with `launch` on Linux, a real `xdg-open` child
 * (a stand-in script on PATH that records what it was given), http and https only.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HostEvent } from "../events/index.js";
import { urlOpener } from "./open-url.js";

let folder: string;
let path: string | undefined;
let events: HostEvent[];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "svc-open-"));
  path = process.env.PATH;
  events = [];
});
afterEach(async () => {
  process.env.PATH = path;
  await rm(folder, { recursive: true, force: true });
});

/** Puts an `xdg-open` on PATH that appends its argument to `opened.txt`. */
async function standInXdgOpen(): Promise<string> {
  const log = join(folder, "opened.txt");
  await writeFile(join(folder, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  await chmod(join(folder, "xdg-open"), 0o755);
  process.env.PATH = `${folder}:${path ?? ""}`;
  return log;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read().catch(() => undefined as T);
    if (done(value) || i > 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("urlOpener", () => {
  it("only shows the address unless asked to open it", () => {
    urlOpener({ emit: (e) => events.push(e), launch: false, platform: "linux" })(
      "com.example.ci",
      "https://example.com/a",
    );
    expect(events).toEqual([{ type: "openURL", extensionId: "com.example.ci", url: "https://example.com/a" }]);
  });

  it("hands http and https pages to xdg-open, and nothing else", async () => {
    const log = await standInXdgOpen();
    const open = urlOpener({ emit: (e) => events.push(e), launch: true, platform: "linux" });
    open("com.example.ci", "https://example.com/a b");
    open("com.example.ci", "file:///etc/passwd");
    open("com.example.ci", "not a url");
    open(undefined, "http://127.0.0.1:8080/x");
    const opened = await eventually(
      () => readFile(log, "utf8"),
      (text) => text?.split("\n").length === 3,
    );
    expect(opened.split("\n").filter(Boolean).sort()).toEqual(["http://127.0.0.1:8080/x", "https://example.com/a%20b"]);
    expect(events.filter((e) => e.type === "log")).toEqual([
      {
        type: "log",
        level: "warn",
        message: "not opening file:///etc/passwd: only http and https pages are opened, not file:",
      },
      { type: "log", level: "warn", message: "not opening not a url: it is not an absolute address" },
    ]);
    expect(events.filter((e) => e.type === "openURL")).toHaveLength(4);
  });

  it("says how to fix a missing xdg-open, and that other platforms only show the address", async () => {
    process.env.PATH = folder;
    urlOpener({ emit: (e) => events.push(e), launch: true, platform: "linux" })("a.b", "https://example.com/");
    await eventually(
      async () => events.length,
      (n) => n === 2,
    );
    expect(events[1]).toEqual({
      type: "log",
      level: "warn",
      message: "could not open https://example.com/: xdg-open is missing (install xdg-utils)",
    });

    events = [];
    const open = urlOpener({ emit: (e) => events.push(e), launch: true, platform: "darwin" });
    open("a.b", "https://example.com/1");
    open("a.b", "https://example.com/2");
    expect(events.filter((e) => e.type === "log")).toEqual([
      {
        type: "log",
        level: "info",
        message: "SVC_OPEN_URLS=1 opens pages only on Linux (with xdg-open); here the address is shown only",
      },
    ]);
  });
});
