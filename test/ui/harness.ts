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
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { HOST_MAIN, type World } from "../host/harness.js";

export const CHROMIUM = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";
/** The launch flags of /work/.library/env/machines/node.md (a fresh --user-data-dir per browser). */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export interface UiBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with its own profile folder. */
export async function launchChromium(options: { colorScheme?: "dark" | "light"; forcedColors?: "active" | "none"; reducedMotion?: "reduce" | "no-preference" } = {}): Promise<UiBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "svc-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 600, height: 900 },
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
  const { stdout } = await promisify(execFile)(process.execPath, [HOST_MAIN, "ui", "--url"], { env: { ...process.env, SVC_HOME: world.home } });
  return stdout.trim();
}

/** Opens a fresh one-time URL in a new tab and waits for the first snapshot to be drawn. */
export async function openUi(world: World, context: BrowserContext, query = ""): Promise<Page> {
  const url = await uiUrl(world);
  const page = await context.newPage();
  const [base, fragment] = url.split("#");
  await page.goto(`${base}${query}#${fragment}`);
  await page.waitForSelector("svc-app[data-ready]");
  return page;
}

/** The UI server's origin from a ticket URL. */
export const originOf = (url: string): string => new URL(url).origin;
