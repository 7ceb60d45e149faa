/**
 * Using the page as a person does, against the real host and runtime: actions pressed until their
 * answer, dismissed rows, failures said at once, quick replies with input, notify as a live
 * region, pages opened only after a click, keyboard-only use, strangers' strings kept inert, and
 * the feed resuming after a dropped connection without losing or repeating a change.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { post, writeExtension } from "../host/harness.js";
import { GALLERY_SVC, galleryScene } from "./gallery.js";
import { openUi, postFromPage, useUiScene, openExtensionRow } from "./harness.js";
import { STRANGER_SVC, strangerCode } from "./strangers.js";

const G = GALLERY_SVC.id;
const scene = useUiScene({
  setup: async (world) => {
    await galleryScene.setup!(world);
    await writeExtension(join(world.bundled, "stranger"), { svc: STRANGER_SVC, code: strangerCode() });
  },
  ready: async (host) => {
    await galleryScene.ready!(host);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === `${STRANGER_SVC.id}/huge`, { timeoutMs: 15_000 });
  },
});

const blip = (key: string, ext = G) => `[data-blip="${ext}/${key}"]`;

describe("actions", () => {
  it("a button shows pressed until its answer", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const retry = page.locator(`${blip("progress")} button`, { hasText: "Retry" });
    await retry.click();
    await expect.poll(() => retry.getAttribute("aria-pressed")).toBe("true");
    expect(await retry.getAttribute("aria-disabled")).toBe("true");
    const before = scene.host.events.filter((e) => e.type === "action" && e.actionId === "slow").length;
    await retry.dispatchEvent("click"); // a second press while the first waits does nothing
    await expect.poll(() => retry.getAttribute("aria-pressed"), { timeout: 10_000 }).toBe("false");
    await page.waitForTimeout(2000);
    expect(scene.host.events.filter((e) => e.type === "action" && e.actionId === "slow").length - before).toBe(1);
    await page.close();
  });

  it("a failed action says why at once", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.locator(`${blip("progress")} button`, { hasText: "Cancel" }).click();
    const problem = page.locator(`${blip("progress")} .problem[role="alert"]`);
    await expect.poll(() => problem.innerText(), { timeout: 10_000 }).toContain("the deploy service said no");
    await page.close();
  });

  it("a dismissed row leaves at the click and stays out; a failed dismissal brings it back", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const rows = () => page.locator(`${blip("list")} .item .item-text > :first-child`).allInnerTexts();
    expect(await rows()).toEqual(["Fix login redirect", "Bump deps", "Docs typo"]);
    // Reject fails at once: the row is back (it may never be seen gone) and the reason is shown.
    await page
      .locator(`${blip("list")} .item`, { hasText: "Bump deps" })
      .locator("button", { hasText: "Reject" })
      .click();
    await expect.poll(rows, { timeout: 10_000 }).toEqual(["Fix login redirect", "Bump deps", "Docs typo"]);
    expect(await page.locator(`${blip("list")} .problem`).innerText()).toContain("the deploy service said no");

    await page
      .locator(`${blip("list")} .item`, { hasText: "Fix login redirect" })
      .locator("button", { hasText: "Approve" })
      .click();
    expect(await rows()).toEqual(["Bump deps", "Docs typo"]);
    // The answer's update leaves the row out for good.
    await scene.host.waitFor((e) => e.type === "action" && e.actionId === "approve");
    await page.waitForTimeout(300);
    expect(await rows()).toEqual(["Bump deps", "Docs typo"]);
    await page.close();
  });

  it("an action with input asks first; notify shows as a live region", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.locator(`${blip("session")} button`, { hasText: "Reply" }).click();
    const field = page.locator(`${blip("session")} input[aria-label="Reply"]`);
    await field.fill("ship it");
    await field.press("Enter");
    const live = page.locator('.notify[aria-live="polite"]');
    await expect.poll(() => live.innerText(), { timeout: 10_000 }).toContain("You said: ship it");
    await page.close();
  });

  it("a page an extension asks to open waits for the person's click, and only http/https", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.locator(`${blip("countdown")} button`, { hasText: "Join" }).click();
    const link = page.locator(".open-requests a", { hasText: "Open" });
    await expect.poll(() => link.getAttribute("href"), { timeout: 10_000 }).toBe("https://meet.example.com/standup");
    await page.locator(`${blip("markup", "com.example.stranger")} button`).click();
    await page.waitForTimeout(1000);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });
});

describe("strangers' strings", () => {
  it("markup stays text, bidi overrides are shown escaped, long text is clipped", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const markup = page.locator(blip("markup", STRANGER_SVC.id));
    expect(await markup.locator(".title").innerText()).toBe("<img src=x onerror=window.__pwned=1>");
    expect(await markup.locator(".figure").innerText()).toBe("<svg onload=window.__pwned=3>");
    expect(await markup.locator(".label").innerText()).toBe("<a href=javascript:window.__pwned=5>x</a>");
    expect(await markup.locator(".facts dd").innerText()).toBe("<iframe src=javascript:window.__pwned=6>");
    expect(
      await page.locator("svc-app img, svc-app script, svc-app iframe, .blip svg:not(.spark):not(.glyph)").count(),
    ).toBe(0);
    // A right-to-left override is refused where it enters (the push route) …
    const refused = await post(scene.world, "/v1/blips", {
      id: "pusher/invoice",
      title: "invoice\u202Eexe.pdf",
      layout: "stat",
      data: { value: 1 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("U+202E");
    // … and should one reach the page anyway, the page shows it escaped, never reordered.
    await page.evaluate(() => {
      const app = document.querySelector("svc-app") as unknown as { receive(event: unknown): void };
      const evil = "invoice\u202Eexe.pdf";
      app.receive({
        type: "blip",
        change: "update",
        id: "pusher/invoice",
        blip: {
          id: "pusher/invoice",
          seq: 1,
          source: "push",
          ended: false,
          title: evil,
          subtitle: evil,
          layout: "stat",
          data: { value: { type: "text", value: evil }, label: evil },
          facts: [{ label: evil, value: evil }],
        },
      });
    });
    const invoice = page.locator('[data-blip="pusher/invoice"]');
    for (const part of [".title", ".sub", ".figure", ".label", ".facts dt", ".facts dd"]) {
      expect(await invoice.locator(part).innerText()).toBe("invoice\\u{202e}exe.pdf");
    }
    expect(await invoice.getAttribute("aria-label")).toBe(
      "invoice\\u{202e}exe.pdf, invoice\\u{202e}exe.pdf, from pushed",
    );
    expect(await page.content()).not.toContain("\u202E");
    // A 1 MB label (no entry point takes one; the page clips whatever it gets).
    await page.evaluate(() => {
      const app = document.querySelector("svc-app") as unknown as { receive(event: unknown): void };
      const mega = "m".repeat(1_048_576);
      app.receive({
        type: "blip",
        change: "update",
        id: "pusher/mega",
        blip: {
          id: "pusher/mega",
          seq: 1,
          source: "push",
          ended: false,
          title: mega,
          layout: "stat",
          data: { value: 1, label: mega },
        },
      });
    });
    const mega = page.locator('[data-blip="pusher/mega"]');
    expect(await mega.locator(".title").innerText()).toHaveLength(120);
    expect(await mega.locator(".label").innerText()).toHaveLength(80);
    const huge = await page.locator(`${blip("huge", "com.example.stranger")} .item-title`).innerText();
    expect(huge).toHaveLength(120);
    expect(huge.endsWith("…")).toBe(true);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Stranger");
    expect(await card.locator(".ext-title").innerText()).toBe("Stranger <b>bold</b>");
    const description = await card.locator("p.description").innerText();
    expect(description).toHaveLength(500);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });
});

async function focusedBlip(page: Page): Promise<string | null> {
  return page.evaluate(
    () => (document.activeElement as HTMLElement | null)?.closest("[data-blip]")?.getAttribute("data-blip") ?? null,
  );
}

describe("keyboard only", () => {
  it("opens, moves between blips, presses an action and closes with Esc", async () => {
    const page = await openUi(scene.world, scene.ui.context, "?view=compact");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("notch-button");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".panel");
    const ids = await page.locator(".panel .blip").evaluateAll((els) => els.map((el) => el.getAttribute("data-blip")));
    await expect.poll(() => focusedBlip(page)).toBe(ids[0]);
    await page.keyboard.press("ArrowDown");
    expect(await focusedBlip(page)).toBe(ids[1]);
    await page.keyboard.press("ArrowUp");
    expect(await focusedBlip(page)).toBe(ids[0]);
    await page.keyboard.press("ArrowUp"); // stays on the first
    expect(await focusedBlip(page)).toBe(ids[0]);
    // j moves down like ↓: walk to the progress blip.
    for (let i = 0; i < ids.indexOf(`${G}/progress`); i++) await page.keyboard.press("j");
    expect(await focusedBlip(page)).toBe(`${G}/progress`);
    // Tab reaches the blip's buttons; Enter presses one.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Retry");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.locator(`${blip("progress")} button`, { hasText: "Retry" }).getAttribute("aria-pressed"))
      .toBe("true");
    // The focus is visible.
    const outline = await page.evaluate(
      (id) => getComputedStyle(document.querySelector(`[data-blip="${id}"]`)!).outlineStyle,
      ids[ids.indexOf(`${G}/progress`) + 1],
    );
    expect(outline).toBe("none"); // not focused: no ring
    await page.keyboard.press("ArrowDown");
    expect(await focusedBlip(page)).toBe(ids[ids.indexOf(`${G}/progress`) + 1]);
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".notch.collapsed");
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("notch-button");
    await page.close();
  });
});

describe("open on hover", () => {
  it("the pointer resting on the notch for the delay opens the panel; leaving closes it; click-only ignores it", async () => {
    const page = await openUi(scene.world, scene.ui.context, "?view=compact");
    await page.mouse.move(5, 500);
    await page.locator(".notch-button").hover();
    await page.waitForSelector(".panel", { timeout: 5000 });
    expect(await page.evaluate(() => document.activeElement?.closest(".panel"))).toBeNull(); // a hover never takes the focus
    await page.mouse.move(5, 890); // beside the 640 px panel
    await page.waitForSelector(".notch.collapsed");
    expect((await postFromPage(page, "/api/settings", { openOn: "click" })).status).toBe(200);
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (document.querySelector("svc-app") as unknown as { store: { settings: { openOn: string } } }).store.settings
              .openOn,
        ),
      )
      .toBe("click");
    await page.locator(".notch-button").hover();
    await page.waitForTimeout(800);
    expect(await page.locator(".panel").count()).toBe(0);
    await postFromPage(page, "/api/settings", { openOn: "hover" });
    await page.close();
  });
});

describe("the live feed", () => {
  it("resumes after a dropped connection without losing or repeating a change", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      document
        .querySelector("svc-app")!
        .addEventListener("svc-blip", (e) =>
          seen.push(`${(e as CustomEvent).detail.id}#${(e as CustomEvent).detail.seq}`),
        );
    });
    const push = (seq: number) =>
      post(scene.world, "/v1/blips", {
        id: "pusher/build",
        seq,
        title: `Build ${seq}`,
        layout: "stat",
        data: { value: seq },
      });
    expect((await push(1)).status).toBe(200);
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen.length)).toBe(1);
    // Drop the stream; while the page is away, three more changes happen.
    await page.evaluate(() => (window as unknown as { svcFeed: { reconnect(): void } }).svcFeed.reconnect());
    for (const seq of [2, 3, 4]) expect((await push(seq)).status).toBe(200);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen), { timeout: 10_000 })
      .toEqual(["pusher/build#1", "pusher/build#2", "pusher/build#3", "pusher/build#4"]);
    expect(await page.locator('[data-blip="pusher/build"] .title').innerText()).toBe("Build 4");
    // Pushed blips sit at the end of the panel.
    expect(await page.locator(".blip").last().getAttribute("data-blip")).toBe("pusher/build");
    await page.close();
  });
});
