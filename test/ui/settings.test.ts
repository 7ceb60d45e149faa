/**
 * Settings in the real page against the real host: options of every type saved on change (the
 * extension runs again with trigger `preferences`), passwords write-only, required options
 * marked, working hours answered by `host.workingHours`, app settings stored atomically; and an
 * ended blip shown as ended, then gone after its dismissAfter.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld, post, startHost, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { GALLERY_SVC } from "./gallery.js";
import { launchChromium, openUi, type UiBrowser } from "./harness.js";

const session = useSessionKeyring();
const ID = "com.example.prefs";
/** Shows what it was given: every option (the password only by its length) and the working hours. */
const PREFS_CODE = `
module.exports = { default: {
  async update(ctx) {
    const p = ctx.preferences;
    const hours = await ctx.workingHours();
    await ctx.emit({ key: "seen", title: "Seen", layout: "stat", data: { value: ctx.trigger.type },
      facts: [
        { label: "options", value: [p.team, p.notes, p.verbose, p.region, p.limit, (p.token ?? "").length].join("|") },
        { label: "hours", value: JSON.stringify(hours ?? null) },
      ] });
    return {};
  },
} };
`;

let world: World;
let host: RunningHost;
let ui: UiBrowser;

beforeAll(async () => {
  world = await makeWorld();
  await writeExtension(join(world.bundled, "prefs"), { svc: { ...GALLERY_SVC, id: ID, title: "Prefs" }, code: PREFS_CODE });
  host = await startHost(world, { SVC_HOST_CLOCK: "system", DBUS_SESSION_BUS_ADDRESS: session.bus.address });
  await host.waitFor((e) => e.type === "blip" && e.id === `${ID}/seen`, { timeoutMs: 15_000 });
  ui = await launchChromium();
}, 40_000);

afterAll(async () => {
  await ui?.close();
  await host?.stop();
  await world?.remove();
});

const facts = async (page: import("playwright-core").Page) => page.locator(`[data-blip="${ID}/seen"] .facts dd`).allInnerTexts();

describe("Settings", () => {
  it("saves every option type on change; the extension runs with trigger preferences", async () => {
    const page = await openUi(world, ui.context);
    expect(await facts(page)).toEqual(["platform||false|eu|5|0", "null"]);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = page.locator(".extension", { has: page.locator("h2", { hasText: "Prefs" }) });
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
    await expect.poll(() => facts(page), { timeout: 10_000 }).toEqual(["infra|line one\\u{a}line two|true|us|7|0", "null"]);
    expect(await page.locator(`[data-blip="${ID}/seen"] .figure`).innerText()).toBe("preferences");
    await page.close();
  });

  it("marks a required option and refuses a wrong value with the reason", async () => {
    const page = await openUi(world, ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = page.locator(".extension", { has: page.locator("h2", { hasText: "Prefs" }) });
    const token = card.getByLabel("API token");
    expect(await token.getAttribute("aria-invalid")).toBe("true");
    expect(await card.locator(".pref", { hasText: "API token" }).locator(".problem").last().innerText()).toBe("Required: Prefs needs it to work.");
    expect(await card.locator(".pref .required").count()).toBe(1);
    // A value the host refuses is answered with the reason (what the field then shows).
    const refused = await page.evaluate(async (id) => {
      const answer = await fetch("/api/preferences", {
        method: "POST",
        headers: { Authorization: `Bearer ${sessionStorage.getItem("svc.session")}`, "Content-Type": "application/json" },
        body: JSON.stringify({ extensionId: id, name: "verbose", value: "yes" }),
      });
      return { status: answer.status, body: await answer.json() };
    }, ID);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/verbose/);
    await page.close();
  });

  it("a password is write-only: saved to the extension, never shown or sent back", async () => {
    const page = await openUi(world, ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = page.locator(".extension", { has: page.locator("h2", { hasText: "Prefs" }) });
    const token = card.getByLabel("API token");
    await token.fill("s3cret-value");
    await token.press("Tab");
    await expect.poll(() => token.getAttribute("placeholder"), { timeout: 10_000 }).toBe("•••••• (set; type to replace)");
    expect(await token.inputValue()).toBe("");
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect.poll(async () => (await facts(page))[0], { timeout: 10_000 }).toMatch(/\|12$/);
    // A new page's snapshot knows only that it is set.
    const fresh = await openUi(world, ui.context);
    const snapshotText = await fresh.evaluate(async () => {
      const token = sessionStorage.getItem("svc.session");
      const controller = new AbortController();
      const answer = await fetch("/api/events", { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
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
    const page = await openUi(world, ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("I have working hours").check();
    await page.getByLabel("Start").fill("08:30");
    await page.getByLabel("Start").press("Tab");
    await page.getByLabel("on click only").check();
    await expect.poll(async () => JSON.parse(await readFile(join(world.home, "ui-settings.json"), "utf8")), { timeout: 10_000 }).toMatchObject({
      openOn: "click",
      workingHours: { start: 510, end: 1020, weekdaysOnly: true },
    });
    const card = page.locator(".extension", { has: page.locator("h2", { hasText: "Prefs" }) });
    await card.getByRole("button", { name: "Run now" }).click();
    await page.getByRole("tab", { name: "Blips" }).click();
    await expect.poll(async () => (await facts(page))[1], { timeout: 10_000 }).toBe('{"start":510,"end":1020,"weekdaysOnly":true}');
    expect(await page.getByLabel("Hover delay (ms)").count()).toBe(0); // on the Blips tab now
    await page.close();
  });
});

describe("ended blips", () => {
  it("are shown as ended, then dismissed after dismissAfter", async () => {
    const page = await openUi(world, ui.context);
    expect((await post(world, "/v1/blips", { id: "ci/run", title: "CI run", state: "running", layout: "progress", data: { fraction: 0.9 } })).status).toBe(200);
    const run = page.locator('[data-blip="ci/run"]');
    await run.waitFor();
    expect((await post(world, "/v1/blips/ci%2Frun/end", { state: "success", dismissAfter: 1 })).status).toBe(200);
    await expect.poll(() => run.getAttribute("class")).toContain("ended");
    expect(await run.getAttribute("aria-label")).toBe("CI run, succeeded, 90 percent, ended");
    await run.waitFor({ state: "detached", timeout: 10_000 });
    await page.close();
  });
});
