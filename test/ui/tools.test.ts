/**
 * The tools tray in real Chromium against the real host and runtime: the list by category and
 * search, every field type, every block type, errors as a critical status, live mode that never
 * lets a stale answer replace a newer one, cancel, and the clipboard suggestion.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { makeWorld, REPO, startHost, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { FIXTURE_CODE, TOOLS_FILE, TOOLS_ID } from "../host-tools/fixture.js";
import { callHost } from "../host-tools/harness.js";
import { desktopShell, dropOn, launchChromium, openUi, postFromPage, type UiBrowser } from "./harness.js";

let world: World;
let host: RunningHost;
let ui: UiBrowser;

/** A live tool whose answer to input starting "slow" comes 1.5 s late; and a tool that takes pictures only. */
const LAG_CODE = `module.exports = { default: { tools: {
  lag: { id: "lag", title: "Lag", icon: "clock", summary: "Answers slowly to slow input", category: "everyday", live: true,
    fields: [{ id: "input", type: "text", label: "Input" }], actions: [{ id: "go", title: "Go" }],
    run: async (_a, v, ctx) => {
      if (v.input.startsWith("slow")) await new Promise((r) => {
        const t = setTimeout(r, 1500);
        ctx.signal.addEventListener("abort", () => { clearTimeout(t); ctx.log.info("lag saw the abort: " + v.input); r(); });
      });
      return [{ type: "text", value: "got " + v.input }];
    } },
  pictures: { id: "pictures", title: "Pictures", icon: "photo", summary: "Counts the pictures it was given", category: "image",
    fields: [{ id: "pics", type: "file", label: "Pictures", types: ["public.image"], multiple: true }], actions: [{ id: "count", title: "Count" }],
    run: async (_a, v) => [{ type: "text", value: v.pics.length + " pictures" }] },
} } };`;

beforeAll(async () => {
  world = await makeWorld();
  await writeExtension(join(world.bundled, "tools"), {
    svc: { id: TOOLS_ID, title: "Tool fixture" },
    code: FIXTURE_CODE,
    tools: TOOLS_FILE,
  });
  await writeExtension(join(world.bundled, "lag"), { svc: { id: "com.example.lag", title: "Lag" }, code: LAG_CODE });
  await symlink(join(REPO, "extensions", "devtools"), join(world.bundled, "devtools"));
  host = await startHost(world, { SVC_HOST_CLOCK: "system" });
  await host.waitFor((e) => e.type === "extension.tools" && e.id === "dev.svc.devtools", { timeoutMs: 15_000 });
  ui = await launchChromium();
}, 40_000);

afterAll(async () => {
  await ui?.close();
  await host?.stop();
  await world?.remove();
});

async function openTools(prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await openUi(world, ui.context, "", prepare);
  await page.click("#tab-tools");
  await page.waitForSelector(".tool-item");
  return page;
}

async function openTool(page: Page, id: string): Promise<void> {
  await page.click(`.tool-item[data-tool="${id}"]`);
  await page.waitForSelector(`[data-open-tool="${id}"]`);
}

const resultText = (page: Page) => page.locator(".tool-result").innerText();

describe("the tools tray", () => {
  it("lists every tool by category and finds them by title and summary", async () => {
    const page = await openTools();
    const groups = await page.locator(".tool-group h2").allInnerTexts();
    expect(groups.map((g) => g.toUpperCase())).toEqual(expect.arrayContaining(["DEVELOPER", "DESIGN", "EVERYDAY"]));
    expect(await page.locator(".tool-item").count()).toBe(6 + 2 + 9);
    await page.fill(".tool-search", "back what");
    expect(await page.locator(".tool-item").allInnerTexts()).toEqual([expect.stringContaining("Echo")]);
    await page.fill(".tool-search", "contrast");
    expect(await page.locator(".tool-item").allInnerTexts()).toEqual([expect.stringContaining("Colour")]);
    await page.close();
  });

  it("draws every field type, and runs the first action on Return and others by their buttons", async () => {
    const page = await openTools();
    await openTool(page, `${TOOLS_ID}/echo`);
    const form = page.locator(".tool-form");
    expect(
      await form
        .locator(".tool-field")
        .evaluateAll((els) => els.map((el) => el.className.replace("tool-field field-", ""))),
    ).toEqual(["text", "number", "toggle", "choice", "code", "pairs", "file"]);
    expect(await form.locator("input[type=number]").getAttribute("min")).toBe("1");
    expect(await form.locator("input[type=number]").getAttribute("max")).toBe("10");
    await form.locator(".field-text input").fill("typed");
    await form.locator(".field-number input").fill("7");
    await form.locator(".field-toggle input").check();
    await form.locator(".field-choice select").selectOption("two");
    await form.locator(".field-code textarea").fill('{"a": 1}');
    await form.locator(".field-pairs textarea").fill("Accept: text/html\nX-Id: 7");
    await form.locator(".field-pairs textarea").dispatchEvent("change");
    await form.locator(".field-text input").press("Enter");
    await page.waitForSelector(".tool-code code");
    expect(JSON.parse(await page.locator(".tool-code code").innerText())).toEqual({
      action: "go",
      values: {
        input: "typed",
        count: 7,
        flag: true,
        pick: "two",
        source: '{"a": 1}',
        headers: [
          { name: "Accept", value: "text/html" },
          { name: "X-Id", value: "7" },
        ],
        file: [],
      },
    });
    await page.click('button[data-action="again"]');
    await expect.poll(async () => JSON.parse(await page.locator(".tool-code code").innerText()).action).toBe("again");
    await page.close();
  });

  it("draws every block type: status with a shape, text, code with copy, a table with links and relative dates, files, image, colour", async () => {
    const page = await openTools();
    await openTool(page, `${TOOLS_ID}/picture`);
    await page.click('button[data-action="run"]');
    await page.waitForSelector(".tool-image");
    expect(await page.locator(".tool-image").getAttribute("src")).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(await page.locator(".tool-color .swatch").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      "rgb(255, 136, 0)",
    );
    await page.click('button[aria-label="Back to all tools"]');

    await openTool(page, "dev.svc.devtools/timestamp");
    const threeHoursAgo = Math.floor(Date.now() / 1000) - 3 * 3600;
    await page.fill(".field-text input", new Date(threeHoursAgo * 1000).toISOString());
    await expect.poll(() => resultText(page)).toContain(String(threeHoursAgo));
    expect(await page.locator(".tool-status").first().innerText()).toBe("Read as ISO 8601");
    expect(await page.locator(".tool-table tr").first().innerText()).toMatch(/Relative\s+3 hours ago/);
    await page.click('button[aria-label="Back to all tools"]');

    await openTool(page, "dev.svc.devtools/json");
    await page.fill(".field-code textarea", '{"b":1}');
    await page.waitForSelector(".tool-status.tone-positive .shape");
    expect(await page.locator(".tool-status.tone-positive").innerText()).toBe("✔ Valid JSON");
    await page.click(".tool-code .copy");
    await expect.poll(() => page.locator(".tool-code .copy").innerText()).toMatch(/Copied|Copy failed/);
    await page.click('button[aria-label="Back to all tools"]');

    await openTool(page, "dev.svc.devtools/curl");
    await page.fill(".field-code textarea", "curl https://api.example.com/x?y=1");
    await page.waitForSelector('.tool-table a[href="https://api.example.com/x?y=1"]');
    await page.click('button[aria-label="Back to all tools"]');

    await openTool(page, "dev.svc.devtools/base64");
    await page.fill(".field-code textarea", "aGVsbG8=");
    await page.click('button[data-action="decodeToFile"]');
    await page.waitForSelector(".tool-files code");
    expect(await page.locator(".tool-files code").innerText()).toMatch(/Data\/dev\.svc\.devtools\/decoded\.bin$/);
    await page.click('button[aria-label="Back to all tools"]');

    const dir = join(world.root, "person");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "note.txt"), "a note\non two lines");
    await openTool(page, `${TOOLS_ID}/read`);
    await page.fill(".field-file textarea", join(dir, "note.txt"));
    await page.locator(".field-file textarea").dispatchEvent("change");
    await page.click('button[data-action="read"]');
    await page.waitForSelector(".tool-text");
    expect(await page.locator(".tool-text").innerText()).toBe("a note\non two lines");
    await page.close();
  });

  it("shows a failure as a critical status with the message, never a stack", async () => {
    const page = await openTools();
    await openTool(page, `${TOOLS_ID}/fail`);
    await page.click('button[data-action="throw"]');
    await page.waitForSelector(".tool-status.tone-critical");
    expect(await page.locator(".tool-status.tone-critical").innerText()).toBe("✖ bad input: try again");
    await page.click('button[data-action="invalid"]');
    await expect
      .poll(() => page.locator(".tool-status.tone-critical").innerText())
      .toBe("✖ Fail returned something the app can't show.");
    await page.close();
  });

  it("live: runs as you type, and a slow stale answer never replaces a newer one", async () => {
    const page = await openTools();
    await openTool(page, "com.example.lag/lag");
    await page.fill(".field-text input", "slow one");
    await page.waitForSelector(".tool-running");
    await page.fill(".field-text input", "fast");
    await expect.poll(() => resultText(page)).toBe("got fast");
    // The slow answer arrives later and is dropped.
    await page.waitForTimeout(1800);
    expect(await resultText(page)).toBe("got fast");
    await page.close();
  });

  it("cancel: a run in flight shows progress and can be cancelled, aborting the tool's ctx.signal; its answer is ignored", async () => {
    const page = await openTools();
    await openTool(page, "com.example.lag/lag");
    await page.fill(".field-text input", "slow two");
    await page.waitForSelector(".tool-running");
    const from = host.events.length;
    await page.click(".tool-running button");
    await host.waitFor((e) => e.type === "log" && e.message === "lag saw the abort: slow two", {
      from,
      timeoutMs: 5_000,
    });
    await page.waitForSelector(".tool-status.tone-critical");
    expect(await page.locator(".tool-status.tone-critical").innerText()).toBe("✖ Cancelled.");
    await page.waitForTimeout(1800);
    // Opening the live tool ran it once with empty input; the cancelled run's answer never shows.
    expect(await resultText(page)).toBe("got ");
    await page.close();
  });

  it("offers the tools for what the clipboard holds first, with the text filled in", async () => {
    const page = await openUi(world, ui.context);
    await ui.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
    await page.evaluate(() => navigator.clipboard.writeText('{"copied": true}'));
    await page.click(".notch-button"); // close
    await page.click(".notch-button"); // open: the clipboard is read now
    await page.click("#tab-tools");
    await page.waitForSelector(".tool-group.suggested .tool-item");
    expect(
      await page
        .locator(".tool-group.suggested .tool-item")
        .evaluateAll((els) => els.map((el) => el.getAttribute("data-tool"))),
    ).toEqual(["dev.svc.devtools/json", `${TOOLS_ID}/echo`]);
    await page.click('.tool-group.suggested .tool-item[data-tool="dev.svc.devtools/json"]');
    expect(await page.locator(".field-code textarea").inputValue()).toBe('{"copied": true}');
    await page.waitForSelector(".tool-status.tone-positive");
    expect(await page.locator(".tool-code code").innerText()).toBe('{\n  "copied": true\n}');
    await page.close();
  });

  it("drops files by handle through the desktop shell: the host resolves each to its path; what the tool copied is copied", async () => {
    const dir = join(world.root, "dropped");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "a.txt"), "a");
    await writeFile(join(dir, "b.txt"), "b");
    const page = await openTools(desktopShell(world, dir));
    await openTool(page, `${TOOLS_ID}/hash`);
    expect(await page.locator('.drop-zone[data-drop="list"]').innerText()).toBe("Drop files here: List");
    await dropOn(page, '.drop-zone[data-drop="list"]', ["a.txt"]);
    await expect
      .poll(() => page.locator(".tool-drops .tool-status").innerText())
      .toBe("✖ List needs at least 2 files it accepts; got 1");
    await dropOn(page, '.drop-zone[data-drop="list"]', ["a.txt", "b.txt"]);
    await expect.poll(() => page.locator(".tool-drops .tool-status").innerText()).toBe("✔ list 2");
    const output = await page.locator(".tool-drops .tool-files code").innerText();
    expect(output).toMatch(/Data\/com\.example\.tools\/list\.txt$/);
    // What the tool made opens through the shell's openFile (a .txt in its data folder: on the allowlist).
    await page.click(`.tool-drops .tool-files button[aria-label="Open ${output}"]`);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { opened: string[] }).opened))
      .toEqual([`opened ${output}`]);
    // The tool got the real paths; the page only ever sent handles.
    expect(await page.evaluate(() => (window as unknown as { copied: string[] }).copied)).toEqual([
      `${dir}/a.txt,${dir}/b.txt`,
    ]);
    // A folder is refused by the host, in its words, before anything runs.
    await mkdir(join(dir, "folder.d"), { recursive: true });
    await dropOn(page, '.drop-zone[data-drop="list"]', ["a.txt", "folder.d"]);
    await expect
      .poll(() => page.locator(".tool-drops .tool-status").innerText())
      .toBe(`✖ folder.d: "path": ${dir}/folder.d is not a file (folders and devices cannot be given to a tool)`);
    await page.close();
  });

  it("a file field takes a dropped or chosen file by handle in the desktop shell, and typed paths in a browser", async () => {
    const dir = join(world.root, "given");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "notes.txt"), "from a drop");
    await writeFile(join(dir, "chosen.txt"), "from the picker");
    const page = await openTools(desktopShell(world, dir));
    await openTool(page, `${TOOLS_ID}/read`);
    await dropOn(page, ".field-file .file-input", ["notes.txt"]);
    await expect
      .poll(() => page.locator(".given-files li").allInnerTexts())
      .toEqual([expect.stringMatching(/^notes\.txt/)]);
    expect(await page.locator(".field-file textarea").inputValue()).toBe("");
    await page.click('button[data-action="read"]');
    await expect.poll(() => page.locator(".tool-text").first().innerText()).toBe("from a drop");
    // The picker: a single-file field keeps the newest file.
    await page.locator(".field-file input[type=file]").setInputFiles(join(dir, "chosen.txt"));
    await expect
      .poll(() => page.locator(".given-files li").allInnerTexts())
      .toEqual([expect.stringMatching(/^chosen\.txt/)]);
    await page.click('button[data-action="read"]');
    await expect.poll(() => page.locator(".tool-text").first().innerText()).toBe("from the picker");
    await page.click('.given-files button[aria-label="Remove chosen.txt"]');
    expect(await page.locator(".given-files").count()).toBe(0);

    // A field takes only files of its types: anything else is named and never given to the host.
    await writeFile(join(dir, "photo.png"), "png");
    await page.click('button[aria-label="Back to all tools"]');
    await openTool(page, "com.example.lag/pictures");
    await dropOn(page, ".field-file .file-input", ["notes.txt"]);
    await expect
      .poll(() => page.locator(".field-file [role=alert]").innerText())
      .toBe("Pictures takes public.image files; got notes.txt");
    await dropOn(page, ".field-file .file-input", ["photo.png"], "image/png");
    await expect
      .poll(() => page.locator(".given-files li").allInnerTexts())
      .toEqual([expect.stringMatching(/^photo\.png/)]);
    expect(await page.locator(".field-file [role=alert]").count()).toBe(0);
    await page.click('button[data-action="count"]');
    await expect.poll(() => page.locator(".tool-text").first().innerText()).toBe("1 pictures");
    await page.close();

    // A plain browser: no picker, no drops; the field takes a typed path.
    const plain = await openTools();
    await openTool(plain, `${TOOLS_ID}/read`);
    expect(await plain.locator(".field-file button").count()).toBe(0);
    expect(await plain.locator(".field-file .hint").innerText()).toBe(
      "The tool may read the file you give, for this run.",
    );
    await plain.fill(".field-file textarea", join(dir, "notes.txt"));
    await plain.locator(".field-file textarea").dispatchEvent("change");
    await plain.click('button[data-action="read"]');
    await expect.poll(() => plain.locator(".tool-text").first().innerText()).toBe("from a drop");
    await plain.close();
  });

  it("an unknown or malformed handle is a clear 400 on every route that takes one", async () => {
    const page = await openTools();
    const unknown = "A".repeat(24);
    const forgotten =
      "is not known to svc any more (svc forgets given files when it restarts, and after 1,000 newer ones): drop or choose it again";
    expect(
      await postFromPage(page, "/api/tools/drop", {
        tool: `${TOOLS_ID}/hash`,
        action: "list",
        handles: [unknown, unknown],
      }),
    ).toEqual({
      status: 400,
      body: { error: `"handles[0]": this file ${forgotten}` },
    });
    expect(
      await postFromPage(page, "/api/tools/run", {
        tool: `${TOOLS_ID}/read`,
        action: "read",
        values: { file: [{ handle: unknown }] },
      }),
    ).toEqual({
      status: 400,
      body: { error: `"values.file[0].handle": this file ${forgotten}` },
    });
    expect(
      await postFromPage(page, "/api/tools/run", {
        tool: `${TOOLS_ID}/read`,
        action: "read",
        values: { file: [{ handle: "../../etc/passwd" }] },
      }),
    ).toEqual({
      status: 400,
      body: { error: '"values.file[0].handle" should be a file handle from the svc app' },
    });
    // Drops take handles only: a page cannot drop a path it typed.
    expect(
      await postFromPage(page, "/api/tools/drop", {
        tool: `${TOOLS_ID}/hash`,
        action: "list",
        files: ["/etc/hostname", "/etc/hosts"],
      }),
    ).toEqual({
      status: 400,
      body: {
        error:
          '"handles" should be a list of file handles from the svc app (drops work in the svc app, not in a browser)',
      },
    });
    await page.close();
  });
});
