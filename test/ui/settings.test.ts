/**
 * Settings in the real page against the real host: options of every type saved on change (the
 * extension runs again with trigger `preferences`), passwords write-only, required options
 * marked, working hours answered by `host.workingHours`, app settings stored atomically; and an
 * ended blip shown as ended, then gone after its dismissAfter.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { post, writeExtension } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { freePort } from "../host-trust/token-service.js";
import { GALLERY_SVC } from "./gallery.js";
import { openUi, postFromPage, useUiScene, openExtensionRow, SCREENSHOTS } from "./harness.js";

const session = useSessionKeyring();
const ID = "com.example.prefs";
/** Shows what it was given: every option (the password only by its length) and the working hours. */
const PREFS_CODE = `
module.exports = { default: {
  async update(ctx) {
    const p = ctx.preferences;
    const hours = await ctx.workingHours();
    // Only the fence's refusals are listed under "Recently refused", never a line that says so.
    ctx.log.warn("the server refused the request: not allowed, denied");
    try { await fetch("https://denied.example.org/"); } catch {}
    await ctx.emit({ key: "seen", title: "Seen", layout: "stat", data: { value: ctx.trigger.type },
      facts: [
        { label: "options", value: [p.team, p.notes, p.verbose, p.region, p.limit, (p.token ?? "").length].join("|") },
        { label: "hours", value: JSON.stringify(hours ?? null) },
      ] });
    return {};
  },
} };
`;

/** Connect opens the sign-in port: one of this file's own, never 47812 (which other files may hold). */
let callbackPort = 0;

const scene = useUiScene({
  setup: async (world) => {
    callbackPort = await freePort();
    await writeExtension(join(world.bundled, "prefs"), {
      svc: {
        ...GALLERY_SVC,
        id: ID,
        title: "Prefs",
        permissions: { network: ["api.example.com", "auth.example.com"] },
        oauth: {
          github: {
            title: "GitHub",
            authorizeUrl: "https://auth.example.com/authorize",
            tokenUrl: "https://auth.example.com/token",
            clientId: "svc-test",
          },
        },
      },
      code: PREFS_CODE,
    });
  },
  get env() {
    return { DBUS_SESSION_BUS_ADDRESS: session.bus.address, SVC_OAUTH_PORT: String(callbackPort) };
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/seen`, { timeoutMs: 15_000 }),
});

const facts = async (page: import("playwright-core").Page) =>
  page.locator(`[data-blip="${ID}/seen"] .facts dd`).allInnerTexts();

describe("Settings", () => {
  it("saves every option type on change; the extension runs with trigger preferences", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    expect(await facts(page)).toEqual(["platform||false|eu|5|0", "null"]);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Prefs");
    await card.getByLabel("Team").fill("infra");
    await card.getByLabel("Team").press("Tab");
    await card.getByLabel("Notes").fill("line one\nline two");
    await card.getByLabel("Notes").press("Tab");
    await card.getByLabel("Verbose").check();
    await card.getByLabel("Region").selectOption("us");
    await card.getByLabel("Limit").fill("7");
    await card.getByLabel("Limit").press("Tab");
    await expect.poll(() => card.locator(".saved").count(), { timeout: 10_000 }).toBe(5);
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect
      .poll(() => facts(page), { timeout: 10_000 })
      .toEqual(["infra|line one\\u{a}line two|true|us|7|0", "null"]);
    expect(await page.locator(`[data-blip="${ID}/seen"] .figure`).innerText()).toBe("preferences");
    await page.close();
  });

  it("marks a required option and refuses a wrong value with the reason", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Prefs");
    const token = card.getByLabel("API token");
    expect(await token.getAttribute("aria-invalid")).toBe("true");
    expect(await card.locator(".pref", { hasText: "API token" }).locator(".problem").last().innerText()).toBe(
      "Required: Prefs needs it to work.",
    );
    expect(await card.locator(".pref .required").count()).toBe(1);
    // A value the host refuses is answered with the reason (what the field then shows).
    const refused = await postFromPage(page, "/api/preferences", { extensionId: ID, name: "verbose", value: "yes" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/verbose/);
    await page.close();
  });

  it("a password is write-only: saved to the extension, never shown or sent back", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Prefs");
    const token = card.getByLabel("API token");
    await token.fill("s3cret-value");
    await token.press("Tab");
    await expect
      .poll(() => token.getAttribute("placeholder"), { timeout: 10_000 })
      .toBe("•••••• (set; type to replace)");
    expect(await token.inputValue()).toBe("");
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect.poll(async () => (await facts(page))[0], { timeout: 10_000 }).toMatch(/\|12$/);
    // A new page's snapshot knows only that it is set.
    const fresh = await openUi(scene.world, scene.ui.context);
    const snapshotText = await fresh.evaluate(async () => {
      const token = sessionStorage.getItem("svc.session");
      const controller = new AbortController();
      const answer = await fetch("/api/events", {
        headers: { Authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes("\n\ndata") && !/data: .*\n\n/.test(text)) text += (await reader.read()).value;
      controller.abort();
      return text;
    });
    expect(snapshotText).toContain('"name":"token","type":"password"');
    expect(snapshotText).toContain('"value":{"set":true}');
    expect(snapshotText).not.toContain("s3cret-value");
    expect(await fresh.content()).not.toContain("s3cret-value");
    await fresh.close();
    await page.close();
  });

  it("working hours are what host.workingHours answers; app settings are stored", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("I have working hours").check();
    await page.getByLabel("Start").fill("08:30");
    await page.getByLabel("Start").press("Tab");
    await page.getByLabel("on click only").check();
    await expect
      .poll(async () => JSON.parse(await readFile(join(scene.world.home, "ui-settings.json"), "utf8")), {
        timeout: 10_000,
      })
      .toMatchObject({
        openOn: "click",
        workingHours: { start: 510, end: 1020, weekdaysOnly: true },
      });
    const card = await openExtensionRow(page, "Prefs");
    await card.getByRole("button", { name: "Run now" }).click();
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect
      .poll(async () => (await facts(page))[1], { timeout: 10_000 })
      .toBe('{"start":510,"end":1020,"weekdaysOnly":true}');
    expect(await page.getByLabel("Hover delay (ms)").count()).toBe(0); // on the Blips tab now
    await page.close();
  });
});

describe("Settings per extension", () => {
  it("shows live figures, what the sandbox refused, and sign-ins with connect", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Prefs");
    await expect
      .poll(() => card.locator(".figures").innerText(), { timeout: 10_000 })
      .toMatch(/^memory [\d.]+ MB · CPU [\d,]+ ms$/);
    await expect
      .poll(() => card.locator(".denials li").first().innerText(), { timeout: 10_000 })
      .toContain("denied.example.org");
    const refused = await card.locator(".denials li").allInnerTexts();
    expect(refused.filter((entry) => !entry.includes("denied: fetch denied.example.org: "))).toEqual([]);
    await card.screenshot({ path: join(SCREENSHOTS, "settings-recently-refused.png") });
    expect(await card.locator(".signin").innerText()).toContain("Not connected to GitHub.");
    await card.getByRole("button", { name: "Connect GitHub" }).click();

    const link = page.locator(".open-requests a", { hasText: "Open" });
    await expect
      .poll(() => link.getAttribute("href"), { timeout: 10_000 })
      .toMatch(/^https:\/\/auth\.example\.com\/authorize\?/);
    expect(await card.locator(".signin [role=status]").innerText()).toBe("the sign-in page is open: finish there");
    await page.close();
  });
});

describe("ended blips", () => {
  it("are shown as ended, then dismissed after dismissAfter", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    expect(
      (
        await post(scene.world, "/v1/blips", {
          id: "ci/run",
          title: "CI run",
          state: "running",
          layout: "progress",
          data: { fraction: 0.5, step: "Migrating" },
        })
      ).status,
    ).toBe(200);
    const run = page.locator('[data-blip="ci/run"]');
    await run.waitFor();
    expect((await post(scene.world, "/v1/blips/ci%2Frun/end", { state: "success", dismissAfter: 1 })).status).toBe(200);
    await expect.poll(() => run.getAttribute("class")).toContain("ended");
    // A finished progress says how it ended, not "50% Migrating ✓ succeeded ENDED".
    expect(await run.getAttribute("aria-label")).toBe("CI run, succeeded, ended, from pushed");
    expect(await run.locator(".chip").innerText()).toBe("succeeded");
    expect(await run.locator(".percent, .step, .mark").count()).toBe(0);
    expect(await run.locator("progress").evaluate((bar) => (bar as HTMLProgressElement).value)).toBe(1);
    await run.waitFor({ state: "detached", timeout: 10_000 });
    await page.close();
  });
});
