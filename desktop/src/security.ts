/**
 * Electron's security checklist, each point set explicitly (electronjs.org/docs/latest/tutorial/
 * security): an isolated, sandboxed renderer without Node; every permission denied; navigation
 * and new windows locked to the UI's origin (pages open in the system browser instead); no
 * `<webview>`; no downloads. IPC senders are checked in `ipc.ts`.
 */
import type { NavigationEvent, Session, WebContents, WebPreferences } from "./electron-api.js";

/** The notch window's renderer: the page is a web page, nothing more. */
export function webPreferences(preload: string, options: { devTools?: boolean } = {}): WebPreferences {
  return {
    preload,
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
    devTools: options.devTools === true,
  };
}

/**
 * Denies every permission request and check (camera, notifications, clipboard, fullscreen, …), devices, screen capture
 * and downloads.
 */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.on("will-download", (event) => event.preventDefault());
}

/** The origin of an http(s) address, or undefined. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

export interface ContentsLock {
  /** The only origin pages may come from: `http://127.0.0.1:<ui-port>`. */
  origin: () => string | undefined;
  /** Where a refused link goes: the system browser, for http and https (see `opening.ts`). */
  openOutside(url: string): void;
  log(message: string): void;
}

/**
 * Keeps a web contents on the UI's origin: navigations and redirects elsewhere are stopped (and
 * http/https links handed to the system browser), new windows are never created, `<webview>`
 * is never attached.
 */
export function lockContents(contents: WebContents, lock: ContentsLock): void {
  const guard =
    (kind: "navigation" | "frame navigation" | "redirect") => (event: NavigationEvent, legacyUrl?: string) => {
      const url = event.url ?? legacyUrl ?? "";
      const allowed = lock.origin();
      if (allowed !== undefined && originOf(url) === allowed) return;
      event.preventDefault();
      // `will-frame-navigate` fires for the main frame too: `will-navigate` speaks for that one.
      if (kind === "frame navigation" && event.isMainFrame !== false) return;
      lock.log(`refused ${kind} to ${url.slice(0, 200)}: the notch shows svc's own page only`);
      if (kind === "navigation") lock.openOutside(url);
    };
  contents.on("will-navigate", guard("navigation"));
  contents.on("will-frame-navigate", guard("frame navigation"));
  contents.on("will-redirect", guard("redirect"));
  contents.on("will-attach-webview", (event: { preventDefault(): void }) => {
    event.preventDefault();
    lock.log("refused a <webview>: the notch never embeds other pages");
  });
  contents.setWindowOpenHandler(({ url }) => {
    lock.openOutside(url);
    return { action: "deny" };
  });
}
