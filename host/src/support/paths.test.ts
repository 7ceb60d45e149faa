import { describe, expect, it } from "vitest";
import { supportPaths, supportRoot } from "./paths.js";

describe("supportRoot", () => {
  it("takes SVC_HOME first, on every platform", () => {
    expect(supportRoot({ SVC_HOME: "/tmp/svc", XDG_DATA_HOME: "/d" }, "linux", "/h")).toBe("/tmp/svc");
    expect(supportRoot({ SVC_HOME: "/tmp/svc" }, "darwin", "/h")).toBe("/tmp/svc");
  });

  it("uses ~/Library/Application Support/Svc on macOS", () => {
    expect(supportRoot({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/Svc");
  });

  it("uses $XDG_DATA_HOME/Svc on Linux, else ~/.local/share/Svc", () => {
    expect(supportRoot({ XDG_DATA_HOME: "/data" }, "linux", "/home/ann")).toBe("/data/Svc");
    expect(supportRoot({}, "linux", "/home/ann")).toBe("/home/ann/.local/share/Svc");
    expect(supportRoot({ XDG_DATA_HOME: "" }, "linux", "/home/ann")).toBe("/home/ann/.local/share/Svc");
    expect(supportRoot({ XDG_DATA_HOME: "relative/dir" }, "linux", "/home/ann")).toBe("/home/ann/.local/share/Svc");
  });

  it("uses %APPDATA%\\Svc on Windows", () => {
    expect(supportRoot({ APPDATA: "C:\\Users\\ann\\AppData\\Roaming" }, "win32", "C:\\Users\\ann")).toBe(
      "C:\\Users\\ann\\AppData\\Roaming\\Svc",
    );
    expect(supportRoot({}, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Roaming\\Svc");
  });
});

describe("supportPaths", () => {
  it("lays out SPEC's files", () => {
    expect(supportPaths("/s", "linux")).toEqual({
      root: "/s",
      extensions: "/s/Extensions",
      data: "/s/Data",
      webhookFile: "/s/webhook.json",
      bin: "/s/bin",
      hookLauncher: "/s/bin/svc-hook",
      blipsFile: "/s/blips.json",
      hookState: "/s/hook",
      lockFile: "/s/host.lock",
      disabledFile: "/s/disabled.json",
      uiOpen: "/s/ui-open",
    });
    expect(supportPaths("/s", "win32").hookLauncher).toMatch(/svc-hook\.cmd$/);
  });
});
