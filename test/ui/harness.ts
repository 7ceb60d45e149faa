/**
 * The real host (with the real runtime) plus the page in Debian's Chromium, driven by
 * playwright-core with executablePath (never a browser download). `openUi` gets the one-time URL
 * exactly as a person does: `svc-host ui --url`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { HostClient, type HostCallError } from "../../desktop/src/host-link.js";
import { openFile } from "../../desktop/src/opening.js";
import { HOST_MAIN, REPO, makeWorld, startHost, type RunningHost, type World } from "../host/harness.js";

/**
 * Where screenshots go: docs/screenshots/ (committed) with SVC_WRITE_SCREENSHOTS=1, else a
 * temporary folder, so an ordinary test run leaves the tree as it was.
 */
export const SCREENSHOTS =
  process.env.SVC_WRITE_SCREENSHOTS === "1"
    ? join(REPO, "docs", "screenshots")
    : join(tmpdir(), `svc-screenshots-${process.pid}`);

export const CHROMIUM = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";
/** The launch flags of /work/.library/env/machines/node.md (a fresh --user-data-dir per browser). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface UiBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with its own profile folder. */
export async function launchChromium(
  options: {
    colorScheme?: "dark" | "light";
    forcedColors?: "active" | "none";
    reducedMotion?: "reduce" | "no-preference";
  } = {},
): Promise<UiBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "svc-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    // The desktop shell's window (desktop/src/placement.ts PANEL): 680 wide, the panel 640 in it.
    viewport: { width: 680, height: 900 },
    locale: "en-US",
    colorScheme: options.colorScheme ?? "dark",
    forcedColors: options.forcedColors ?? "none",
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  return {
    browser: context.browser()!,
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** `svc-host ui --url` for the host running in `world`. */
export async function uiUrl(world: World): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [HOST_MAIN, "ui", "--url"], {
    env: { ...process.env, SVC_HOME: world.home },
  });
  return stdout.trim();
}

/**
 * Opens a fresh one-time URL in a new tab and waits for the first snapshot to be drawn.
 * `prepare` runs on the tab before the page loads (to stand in for the desktop shell).
 */
export async function openUi(
  world: World,
  context: BrowserContext,
  query = "",
  prepare?: (page: Page) => Promise<void>,
): Promise<Page> {
  const url = await uiUrl(world);
  const page = await context.newPage();
  await prepare?.(page);
  const [base, fragment] = url.split("#");
  await page.goto(`${base}${query}#${fragment}`);
  await page.waitForSelector("svc-app[data-ready]");
  return page;
}

/** The UI server's origin from a ticket URL. */
export const originOf = (url: string): string => new URL(url).origin;

/** A host (with its world) and, unless `browser: false`, a Chromium: shared by one test file. */
export interface UiScene {
  readonly world: World;
  readonly host: RunningHost;
  readonly ui: UiBrowser;
  /** Stops the host and starts a new one on the same world (a new port, new tickets). */
  restartHost(): Promise<void>;
}

export interface UiSceneOptions {
  /** Writes the file's extensions into the world before the host starts. */
  setup?: (world: World) => Promise<unknown>;
  env?: Record<string, string>;
  /** Waits until the host shows what the tests need. */
  ready?: (host: RunningHost) => Promise<unknown>;
  browser?: boolean;
}

/**
 * Starts the scene before the file's tests (system clock) and takes it down after them.
 *
 * @example
 * const scene = useUiScene({ setup: (world) => writeExtension(...), ready: (host) => host.waitFor(...) });
 * it("…", async () => { const page = await openUi(scene.world, scene.ui.context); });
 */
export function useUiScene(options: UiSceneOptions = {}): UiScene {
  const parts: { world?: World; host?: RunningHost; ui?: UiBrowser } = {};
  // Read when the scene starts, not here: `env` may be a getter over things made in beforeAll.
  const hostEnv = () => ({ SVC_HOST_CLOCK: "system", ...options.env });
  beforeAll(async () => {
    parts.world = await makeWorld();
    await options.setup?.(parts.world);
    parts.host = await startHost(parts.world, hostEnv());
    await options.ready?.(parts.host);
    if (options.browser !== false) parts.ui = await launchChromium();
  }, 40_000);
  afterAll(async () => {
    await parts.ui?.close();
    await parts.host?.stop();
    await parts.world?.remove();
  });
  return {
    get world() {
      return parts.world!;
    },
    get host() {
      return parts.host!;
    },
    get ui() {
      return parts.ui!;
    },
    async restartHost() {
      await parts.host!.stop();
      parts.host = await startHost(parts.world!, hostEnv());
    },
  };
}

/** A POST to the UI API from inside the page, with the tab's own session. */
export function postFromPage(
  page: Page,
  path: string,
  body: unknown,
): Promise<{ status: number; body: { error?: string; [key: string]: unknown } }> {
  return page.evaluate(
    async ([path, body]) => {
      const answer = await fetch(path as string, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${sessionStorage.getItem("svc.session")}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: await answer.json() };
    },
    [path, body] as const,
  );
}

/**
 * The desktop shell's preload and main process, as a stand-in on one tab: `svcShell` with
 * `registerDroppedFile`, `copyText` and `openFile`. A dropped `File` from the test is "the file named so in
 * `folder`" (only the real preload can read a path out of a File); its path is registered with
 * the real host exactly as the shell's main process does it (`HostClient.giveFile`, the bearer
 * token from webhook.json), and the page gets the host's handle. What the page copied lands in
 * `window.copied`; `openFile` runs the shell's own check (desktop/src/opening.ts) and what the
 * system would have done lands in `window.opened`.
 */
export function desktopShell(world: World, folder: string): (page: Page) => Promise<void> {
  return async (page) => {
    // As desktop.ts does: the host's reason for a refusal (400) reaches the page in its own words.
    await page.exposeFunction("svcTestGiveFile", (name: string) =>
      new HostClient(world.home).giveFile(join(folder, name)).catch((error: HostCallError) => {
        throw new Error(
          error.status === 400 && error.said ? error.said : "svc-register-drop failed; details are in the svc log",
        );
      }),
    );
    // As desktop.ts does: the shell's own openFile (the allowlist), from the data folder; the system's app recorded.
    await page.exposeFunction("svcTestOpenFile", async (path: string) => {
      const done: string[] = [];
      const system = {
        openPath: async (real: string) => (done.push(`opened ${real}`), ""),
        showItemInFolder: (real: string) => void done.push(`shown in its folder ${real}`),
      };
      const result = await openFile(system, path, { folders: [join(world.home, "Data")], files: new Set() });
      if (!result.ok) throw new Error(result.error);
      return done[0];
    });
    await page.addInitScript(() => {
      const copied: string[] = [];
      const opened: string[] = [];
      const test = window as unknown as {
        svcTestGiveFile(name: string): Promise<string>;
        svcTestOpenFile(path: string): Promise<string>;
      };
      Object.assign(window, {
        copied,
        opened,
        svcShell: {
          registerDroppedFile: async (file: File) => ({ handle: await test.svcTestGiveFile(file.name) }),
          copyText: (text: string) => void copied.push(text),
          openFile: async (path: string) => void opened.push(await test.svcTestOpenFile(path)),
        },
      });
    });
  };
}

/** Drops files (by name, as text/plain) on the element `selector` finds, as a person's drag would. */
export function dropOn(page: Page, selector: string, names: readonly string[], type = "text/plain"): Promise<void> {
  return page.evaluate(
    ([selector, names, type]) => {
      const transfer = new DataTransfer();
      for (const name of names as string[]) transfer.items.add(new File([name], name, { type: type as string }));
      document
        .querySelector(selector as string)!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [selector, names, type] as const,
  );
}

/**
 * Settings' row of the extension titled `title` (the Settings tab already shown), opened to its
 * details: a row is closed until the person opens it.
 */
export async function openExtensionRow(page: Page, title: string): Promise<Locator> {
  const row = page.locator(".extension", { has: page.locator("h2", { hasText: title }) });
  const open = row.locator(".ext-open");
  await open.waitFor();
  if ((await open.getAttribute("aria-expanded")) !== "true") await open.click();
  await row.locator(".ext-details").waitFor();
  return row;
}
