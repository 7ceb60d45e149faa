/**
 * Who is speaking, in the page (Debian's Chromium against the real host and runtime): every blip
 * and every notify line carries its extension's name from the catalog. An extension titled "svc"
 * that writes "svc: your keychain is locked" is shown with its id; two extensions both titled
 * "Focus" each carry their id; a pushed blip says "pushed", whatever its title says.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { post, writeExtension } from "../host/harness.js";
import { openUi, SCREENSHOTS, useUiScene } from "./harness.js";
import { axeViolations } from "./axe.js";

const LURE = "svc: your keychain is locked — type your login password";

/** An extension with one blip whose action sends a notify line (the page is open by then). */
const speaking = (title: string, note: string) => `module.exports = { default: {
  async update(ctx) {
    await ctx.emit({ key: "main", title: ${JSON.stringify(title)}, layout: "stat", state: "warning",
      data: { value: "locked" }, actions: [{ id: "say", title: "Say" }] });
  },
  async onAction(ctx) { await ctx.notify(${JSON.stringify(note)}, "Svc needs it to go on."); },
} };`;

const scene = useUiScene({
  setup: async (world) => {
    await writeExtension(join(world.bundled, "mimic"), {
      svc: { id: "com.evil.keychain", title: "svc" },
      code: speaking("svc", LURE),
    });
    await writeExtension(join(world.bundled, "focus"), {
      svc: { id: "dev.test.focus", title: "Focus" },
      code: speaking("Focus", "Break over"),
    });
    await writeExtension(join(world.bundled, "fake-focus"), {
      svc: { id: "com.evil.focus", title: "Focus" },
      code: speaking("Focus", "Break over"),
    });
    await writeExtension(join(world.bundled, "deploys"), {
      svc: { id: "com.example.deploys", title: "Deploys" },
      code: speaking("Deploy api", "Deployed"),
    });
  },
  ready: (host) =>
    Promise.all(
      ["com.evil.keychain", "dev.test.focus", "com.evil.focus", "com.example.deploys"].map((id) =>
        host.waitFor((e) => e.type === "blip" && e.id === `${id}/main`, { timeoutMs: 20_000 }),
      ),
    ),
});

const blip = (id: string) => `[data-blip="${id}/main"]`;

describe("every blip and notify line in the page names its extension", () => {
  it("blips: by the catalog's title; with the id when the name mimics svc or collides; pushed ones say pushed", async () => {
    expect(
      (
        await post(scene.world, "/v1/blips", {
          id: "update",
          title: "svc: update ready",
          layout: "stat",
          data: { value: "1.2" },
        })
      ).status,
    ).toBe(200);
    const page = await openUi(scene.world, scene.ui.context);
    const from = (selector: string) => page.locator(`${selector} .from`).textContent();
    expect(await from(blip("com.evil.keychain"))).toBe("from svc com.evil.keychain");
    expect(await from(blip("dev.test.focus"))).toBe("from Focus dev.test.focus");
    expect(await from(blip("com.evil.focus"))).toBe("from Focus com.evil.focus");
    expect(await from(blip("com.example.deploys"))).toBe("from Deploys");
    expect(await from('[data-blip="webhook/update"]')).toBe("from pushed");
    // "from" is for screen readers; the eye sees the name (and the id in its own box).
    expect(await page.locator(`${blip("com.evil.keychain")} .from .sr`).textContent()).toBe("from ");
    expect(
      await page
        .locator(`${blip("com.evil.keychain")} .from bdi`)
        .first()
        .innerText(),
    ).toBe("svc");
    expect(await page.locator(`${blip("com.evil.keychain")} .from-id`).innerText()).toBe("com.evil.keychain");
    expect(await page.locator(blip("com.evil.keychain")).getAttribute("aria-label")).toBe(
      "svc, warning, locked, from svc · com.evil.keychain",
    );
    expect(await page.locator('[data-blip="webhook/update"]').getAttribute("aria-label")).toBe(
      "svc: update ready, 1.2, from pushed",
    );
    // The compact notch names them too.
    await page.click(".notch-button");
    await page.waitForSelector(".compact");
    const compact = page.locator(".compact .blip");
    expect(await compact.count()).toBe(2);
    expect(await compact.locator(".from").count()).toBe(2);
    const ordered = await page
      .locator(".compact .blip")
      .evaluateAll((blips) => blips.map((b) => [b.getAttribute("data-blip"), b.querySelector(".from")?.textContent]));
    for (const [id, text] of ordered) expect(text, id!).toMatch(/^from \S/);
    await page.close();
  });

  it("a notify line starts with who sent it: the mimic's 'svc:' is framed as com.evil.keychain's", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.locator(`${blip("com.evil.keychain")} button`, { hasText: "Say" }).click();
    const line = page.locator(".notify-line");
    await line.waitFor();
    expect(await line.locator(".from").textContent()).toBe("from svc com.evil.keychain");
    expect((await line.textContent())!.replace(/\s+/g, " ").trim()).toBe(
      `from svc com.evil.keychain${LURE} Svc needs it to go on. ✕`,
    );
    // The tag comes before the stranger's words, in the live region a screen reader hears.
    expect(
      await page
        .locator('.notify[aria-live="polite"]')
        .evaluate((region) => region.querySelector(".notify-line")!.firstElementChild!.className),
    ).toBe("from");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, "speakers-dark.png"), fullPage: false });
    await page.locator('[aria-label="Dismiss notification"]').click();
    // Two extensions named Focus: each line carries its own id.
    for (const id of ["dev.test.focus", "com.evil.focus"]) {
      await page.locator(`${blip(id)} button`, { hasText: "Say" }).click();
      await expect.poll(() => line.locator(".from").textContent(), { timeout: 10_000 }).toBe(`from Focus ${id}`);
      await page.locator('[aria-label="Dismiss notification"]').click();
    }
    await page.close();
  });
});
