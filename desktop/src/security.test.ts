import { describe, expect, it } from "vitest";
import { denyAllPermissions, lockContents, originOf, webPreferences } from "./security.js";
import { cancellable, FakeSession, FakeWebContents } from "./testing/electron-double.js";

describe("renderer settings", () => {
  it("sets every point of the checklist explicitly", () => {
    expect(webPreferences("/app/preload.cjs")).toEqual({
      preload: "/app/preload.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: false,
    });
    expect(webPreferences("/p", { devTools: true }).devTools).toBe(true);
  });
});

describe("permissions", () => {
  it("denies every request and every check, devices, screen capture and downloads", () => {
    const session = new FakeSession();
    denyAllPermissions(session);
    for (const permission of [
      "media",
      "notifications",
      "clipboard-read",
      "clipboard-sanitized-write",
      "fullscreen",
      "geolocation",
      "openExternal",
      "display-capture",
      "unknown",
    ]) {
      const answers: boolean[] = [];
      session.requestHandler!(null, permission, (granted) => answers.push(granted), {});
      expect(answers).toEqual([false]);
      expect(session.checkHandler!(null, permission, "http://127.0.0.1:47900", {})).toBe(false);
    }
    expect(session.deviceHandler!({ deviceType: "usb" })).toBe(false);
    const streams: unknown[] = [];
    session.displayMediaHandler!({}, (s) => streams.push(s));
    expect(streams).toEqual([null]);
    const download = cancellable({});
    session.emit("will-download", download, {});
    expect(download.defaultPrevented).toBe(true);
  });
});

describe("navigation and new windows", () => {
  const UI = "http://127.0.0.1:47900";
  function locked(origin: string | undefined) {
    const contents = new FakeWebContents(new FakeSession());
    const outside: string[] = [];
    const log: string[] = [];
    lockContents(contents, { origin: () => origin, openOutside: (url) => outside.push(url), log: (m) => log.push(m) });
    return { contents, outside, log };
  }

  it("stays on the UI's origin; a link elsewhere goes to the system browser instead", () => {
    const { contents, outside, log } = locked(UI);
    expect(contents.navigate(`${UI}/settings`)).toBe(true);
    expect(contents.navigate("https://example.com/page")).toBe(false);
    expect(contents.navigate("http://127.0.0.1:47901/")).toBe(false); // another port is another origin
    expect(contents.navigate("http://localhost:47900/")).toBe(false); // another host name too
    expect(contents.navigate("file:///etc/passwd")).toBe(false);
    expect(contents.navigate("javascript:alert(1)")).toBe(false);
    expect(outside).toEqual([
      "https://example.com/page",
      "http://127.0.0.1:47901/",
      "http://localhost:47900/",
      "file:///etc/passwd",
      "javascript:alert(1)",
    ]);
    expect(log[0]).toBe("refused navigation to https://example.com/page: the notch shows svc's own page only");
  });

  it("stops frames and redirects off the origin without opening them", () => {
    const { contents, outside, log } = locked(UI);
    expect(contents.navigate("https://evil.example/", "will-frame-navigate", false)).toBe(false);
    expect(contents.navigate(`${UI}/x`, "will-frame-navigate", false)).toBe(true);
    expect(contents.navigate("https://evil.example/", "will-redirect")).toBe(false);
    // The main frame's will-frame-navigate is stopped too, and spoken for by will-navigate.
    expect(contents.navigate("https://evil.example/", "will-frame-navigate", true)).toBe(false);
    expect(outside).toEqual([]);
    expect(log).toEqual([
      "refused frame navigation to https://evil.example/: the notch shows svc's own page only",
      "refused redirect to https://evil.example/: the notch shows svc's own page only",
    ]);
  });

  it("allows nothing before the UI's origin is known", () => {
    const { contents } = locked(undefined);
    expect(contents.navigate(`${UI}/`)).toBe(false);
  });

  it("never opens a window: the address goes to the system browser's gate", () => {
    const { contents, outside } = locked(UI);
    expect(contents.openHandler!({ url: "https://example.com/" })).toEqual({ action: "deny" });
    expect(contents.openHandler!({ url: `${UI}/popup` })).toEqual({ action: "deny" });
    expect(outside).toEqual(["https://example.com/", `${UI}/popup`]);
  });

  it("never attaches a <webview>", () => {
    const { contents, log } = locked(UI);
    const event = cancellable({});
    contents.emit("will-attach-webview", event, {}, {});
    expect(event.defaultPrevented).toBe(true);
    expect(log).toEqual(["refused a <webview>: the notch never embeds other pages"]);
  });

  it("reads an origin only from http and https addresses", () => {
    expect(originOf("http://127.0.0.1:47900/#t=x")).toBe("http://127.0.0.1:47900");
    expect(originOf("file:///x")).toBeUndefined();
    expect(originOf("nonsense")).toBeUndefined();
  });
});
