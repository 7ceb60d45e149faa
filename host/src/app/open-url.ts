/**
 * The host's `openURL`, for `ctx.openURL` and for OAuth sign-in pages: always a line on the
 * display (`openURL` event), and with `SVC_OPEN_URLS=1` on Linux the page also opens in the
 * person's browser through `xdg-open`. Only http and https addresses are ever handed to
 * `xdg-open`: an extension must not make the desktop open a `file:` path or some other handler.
 */
import { spawn } from "node:child_process";
import type { HostEvent } from "../events/index.js";
import type { SignInPage } from "../oauth/index.js";

export interface UrlOpenerOptions {
  emit(event: HostEvent): void;
  /** Open pages in the browser, not only show them (`SVC_OPEN_URLS=1`). */
  launch: boolean;
  /** Default: this process's platform. */
  platform?: NodeJS.Platform;
}

/** Opens one address for an extension (or for the host itself when `extensionId` is undefined). */
export type OpenUrl = (extensionId: string | undefined, url: string, signIn?: SignInPage) => void;

/** The address as a browser page, or why it is not one. */
function browserPage(url: string): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not an absolute address";
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:"
    ? parsed
    : `only http and https pages are opened, not ${parsed.protocol}`;
}

/**
 * @example
 * const openURL = urlOpener({ emit: display.show, launch: process.env.SVC_OPEN_URLS === "1" });
 * openURL("com.example.ci", "https://ci.example.com/run/42"); // a display line, and xdg-open when asked
 */
export function urlOpener(options: UrlOpenerOptions): OpenUrl {
  const platform = options.platform ?? process.platform;
  const log = (level: "info" | "warn", message: string) => options.emit({ type: "log", level, message });
  let toldPlatform = false;
  return function openURL(extensionId, url, signIn) {
    options.emit({
      type: "openURL",
      ...(extensionId === undefined ? {} : { extensionId }),
      url,
      ...(signIn ? { signIn } : {}),
    });
    if (!options.launch) return;
    if (platform !== "linux") {
      if (!toldPlatform)
        log("info", "SVC_OPEN_URLS=1 opens pages only on Linux (with xdg-open); here the address is shown only");
      toldPlatform = true;
      return;
    }
    const page = browserPage(url);
    if (typeof page === "string") return log("warn", `not opening ${url.slice(0, 200)}: ${page}`);
    const child = spawn("xdg-open", [page.href], { detached: true, stdio: "ignore" });
    child.once("error", (error: NodeJS.ErrnoException) =>
      log(
        "warn",
        error.code === "ENOENT"
          ? `could not open ${page.href}: xdg-open is missing (install xdg-utils)`
          : `could not open ${page.href}: ${error.message}`,
      ),
    );
    child.unref();
  };
}
