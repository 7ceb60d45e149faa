/**
 * AI agents and the person, end to end: a real MCP client from the SDK talks to `svckit mcp` over
 * stdio, which calls the REAL svc-host and runtime; the notch page runs in Debian's Chromium.
 * A tool call with a file path waits for the person: Allow (by keyboard) lets the tool read that
 * exact file, Deny and no answer in time refuse the agent, and with no notch open nobody is asked.
 * The switch for agents lives on the Settings page, per extension and tool.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeForDisplay } from "@svc/api";
import { makeWorld, startHost, type RunningHost, type World } from "../host/harness.js";
import { TOOLS_ID } from "../host-tools/fixture.js";
import { callHost, writeToolFixtures } from "../host-tools/harness.js";
import { SVCKIT_BIN } from "../cli/harness.js";
import { axeViolations } from "./axe.js";
import { launchChromium, openUi, postFromPage, SCREENSHOTS, type UiBrowser } from "./harness.js";

interface Scene {
  world: World;
  host: RunningHost;
  client: Client;
}

/** A world with the tool fixture, its host (with `waitMs` for the person) and an MCP client on `svckit mcp`. */
async function startScene(waitMs: number): Promise<Scene> {
  const world = await makeWorld();
  await writeToolFixtures(world);
  const host = await startHost(world, { SVC_HOST_CLOCK: "system", SVC_AGENT_FILES_TIMEOUT_MS: String(waitMs) });
  await host.waitFor((e) => e.type === "extension.tools" && e.id === TOOLS_ID, { timeoutMs: 30_000 });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SVCKIT_BIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", HOME: world.userHome, SVC_HOME: world.home },
    stderr: "pipe",
  });
  const client = new Client({ name: "svc-test", version: "1.0.0" });
  await client.connect(transport);
  return { world, host, client };
}

async function stopScene(scene: Scene | undefined): Promise<void> {
  await scene?.client.close();
  await scene?.host.stop();
  await scene?.world.remove();
}

let main: Scene;
let late: Scene | undefined;
let ui: UiBrowser;
/**
 * The file the person lets the agent's tool read (its name hides a right-to-left override), and a harmless-looking
 * symlink to it.
 */
let secret: string;
let link: string;

beforeAll(async () => {
  main = await startScene(30_000);
  const dir = join(main.world.root, "papers");
  await mkdir(dir, { recursive: true });
  secret = join(dir, "invoice\u202Etxt.exe");
  await writeFile(secret, "hello from the person");
  secret = await realpath(secret);
  link = join(dir, "notes.txt");
  await symlink(secret, link);
  ui = await launchChromium();
}, 60_000);

afterAll(async () => {
  await ui?.close();
  await stopScene(main);
  await stopScene(late);
});

const agentsOf = async (world: World) =>
  (await callHost(world, "GET", "/v1/tools")).json.tools
    .filter((t: { agents: boolean }) => t.agents)
    .map((t: { name: string }) => t.name);
const readCall = (scene: Scene, path: string) =>
  scene.client.callTool({ name: "read_read", arguments: { file: [path] } });
const refusal = (text: string) => ({ isError: true, content: [{ type: "text", text }] });

/**
 * A page whose clock the test drives (playwright's fake timers: `Date`, `performance`, timers),
 * paused: the page's half second before an Allow takes a click passes only when the test says so.
 */
async function pagePausedClock(): Promise<Page> {
  const page = await openUi(main.world, ui.context, "", (p) => p.clock.install());
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  return page;
}

/** A real click (pointer down and up) on the middle of the waiting request's Allow, disabled or not. */
async function clickAllow(page: Page): Promise<void> {
  const box = (await page.locator('.agent-files-request [data-answer="allow"]').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** The host's own log line for an answered request: "… asked for 1 file for <tool>: allowed". */
const allowedLines = (from: number) =>
  main.host.events
    .slice(from)
    .filter((e) => e.type === "log" && / asked for \d+ files? for .*: allowed$/.test(e.message));

/** The notch shows `count` requests (within 10 s: the feed and a redraw on a busy machine). */
const expectWaiting = (page: Page, count: number) =>
  expect.poll(() => page.locator(".agent-files-request").count(), { timeout: 10_000 }).toBe(count);

async function waitingRequest(page: Page) {
  await page.waitForSelector(".agent-files-request");
  return page.locator(".agent-files-request");
}

describe("before any notch is open", () => {
  it("an agent's file path is refused, since nobody could be asked (the tool is on for agents)", async () => {
    expect((await callHost(main.world, "PUT", `/v1/tools/${TOOLS_ID}/read/agents`, { enabled: true })).status).toBe(
      200,
    );
    const from = main.host.events.length;
    expect(await readCall(main, secret)).toEqual(
      refusal(
        "no svc notch is open to ask the person: a file path from an agent is a read grant only once the person allows it there. Ask them to open svc, then call Read again",
      ),
    );
    expect(
      main.host.events
        .slice(from)
        .some((e) => e.type === "status" && e.extensionId === TOOLS_ID && e.status === "running"),
    ).toBe(false);
    expect((await callHost(main.world, "PUT", `/v1/tools/${TOOLS_ID}/read/agents`, { enabled: false })).status).toBe(
      200,
    );
  });
});

describe("a tool's switch for AI agents, in Settings", () => {
  it("lists each extension's tools, off by default; a switch is saved at once and survives a reload", async () => {
    const page = await openUi(main.world, ui.context);
    await page.click("#tab-settings");
    const read = page.locator(`[data-agent-tool="${TOOLS_ID}/read"]`);
    await read.waitFor();
    const switches = page.locator(".agent-switches input");
    expect(
      await switches.evaluateAll((inputs) =>
        inputs.map((i) => [i.getAttribute("data-agent-tool"), (i as HTMLInputElement).checked, i.getAttribute("role")]),
      ),
    ).toEqual(
      ["echo", "plain", "fail", "read", "picture", "hash"].map((name) => [`${TOOLS_ID}/${name}`, false, "switch"]),
    );
    expect(await page.getByRole("switch", { name: "Read available to agents" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await read.check();
    await expect.poll(() => agentsOf(main.world), { timeout: 10_000 }).toEqual(["read"]);
    await expect
      .poll(() => read.locator("xpath=ancestor::li").locator(".saved").innerText(), { timeout: 10_000 })
      .toBe("saved");
    await page.locator(`[data-agent-tool="${TOOLS_ID}/plain"]`).check();
    await expect.poll(() => agentsOf(main.world), { timeout: 10_000 }).toEqual(["plain", "read"]);
    await page.locator(`[data-agent-tool="${TOOLS_ID}/plain"]`).uncheck();
    await expect.poll(() => agentsOf(main.world), { timeout: 10_000 }).toEqual(["read"]);
    await page.reload();
    await page.waitForSelector("svc-app[data-ready]");
    await page.click("#tab-settings");
    await expect
      .poll(() => page.locator(`[data-agent-tool="${TOOLS_ID}/read"]`).isChecked(), { timeout: 10_000 })
      .toBe(true);
    expect(await page.locator(`[data-agent-tool="${TOOLS_ID}/plain"]`).isChecked()).toBe(false);
    // The tool itself no longer carries the switch: it lives in Settings.
    await page.click("#tab-tools");
    await page.click(`.tool-item[data-tool="${TOOLS_ID}/read"]`);
    await page.waitForSelector(`[data-open-tool="${TOOLS_ID}/read"]`);
    expect(await page.locator(".tool-open input[type=checkbox]").count()).toBe(0);
    await page.close();
  });
});

describe("an agent's file path waits for the person in the notch", () => {
  it("the notch opens by itself and asks; Allow, by keyboard, lets the tool read that exact file (its real path)", async () => {
    const page = await openUi(main.world, ui.context, "?view=compact");
    expect(await page.locator(".panel").count()).toBe(0);
    const region = page.locator("section.agent-files");
    expect(await region.getAttribute("aria-live")).toBe("polite");
    expect(await region.getAttribute("aria-label")).toBe("Agents asking for files");
    // The client asks for progress: svckit mcp says at once that the call waits for the person.
    const progress: Array<string | undefined> = [];
    const call = main.client.callTool({ name: "read_read", arguments: { file: [link] } }, undefined, {
      onprogress: (p) => progress.push(p.message),
    });
    const request = await waitingRequest(page);
    // It opened the panel without taking the focus from where it was.
    await page.waitForSelector(".panel");
    expect(await page.evaluate(() => document.activeElement?.closest(".agent-files-request") ?? null)).toBeNull();
    const group = page.getByRole("group", {
      name: "An agent calling itself “svc-test 1.0.0” asks to let Read read 1 file",
    });
    expect(await group.count()).toBe(1);
    expect(await request.locator(".sub").first().innerText()).toBe(
      `Tool fixture · Read (${TOOLS_ID}/read) · action Read`,
    );
    // The file shown is the one that would be read: the symlink resolved, its name inert.
    expect(await request.locator(".agent-files-list code").allInnerTexts()).toEqual([escapeForDisplay(secret)]);
    expect(await request.innerText()).not.toContain("\u202E");
    expect(await axeViolations(page)).toEqual([]);
    // Allow takes a click (and the focus) once its first half second is over.
    await page.waitForSelector('[data-answer="allow"]:not([disabled])');
    await page.screenshot({ path: join(SCREENSHOTS, "agent-files-dark.png"), fullPage: false });
    await request.locator('[data-answer="allow"]').focus();
    await page.keyboard.press("Enter");
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect((result.content as Array<{ type: string; text?: string }>)[0]).toEqual({
      type: "text",
      text: "hello from the person",
    });
    expect(progress[0]).toBe("waiting for the person to allow the files in svc's notch");
    await expectWaiting(page, 0);
    await page.close();
  });

  it("a reload still shows the waiting request; Deny refuses the agent, and the tool never ran", async () => {
    const page = await openUi(main.world, ui.context);
    const from = main.host.events.length;
    const call = readCall(main, secret);
    await waitingRequest(page);
    await page.reload();
    await page.waitForSelector("svc-app[data-ready]");
    const request = await waitingRequest(page);
    expect(await request.locator(".agent-files-list code").allInnerTexts()).toEqual([escapeForDisplay(secret)]);
    const id = await request.getAttribute("data-request");
    await request.locator('[data-answer="deny"]').click();
    expect(await call).toEqual(refusal("the person denied Read access to 1 file in svc's notch: the tool did not run"));
    expect(
      main.host.events
        .slice(from)
        .some((e) => e.type === "status" && e.extensionId === TOOLS_ID && e.status === "running"),
    ).toBe(false);
    await expectWaiting(page, 0);
    // The answer route, under the page's own session: an answered request is over; a wrong body is refused.
    expect(await postFromPage(page, "/api/agent-files", { id, allow: true })).toEqual({
      status: 404,
      body: { error: "this request is over (answered, timed out or withdrawn by the agent)" },
    });
    expect(await postFromPage(page, "/api/agent-files", { id, allow: "yes" })).toEqual({
      status: 400,
      body: { error: '"allow" should be true or false' },
    });
    await page.close();
  });

  it("shows the call's other values beside the files, and the action the agent chose", async () => {
    expect((await callHost(main.world, "PUT", `/v1/tools/${TOOLS_ID}/echo/agents`, { enabled: true })).status).toBe(
      200,
    );
    const page = await openUi(main.world, ui.context);
    const call = main.client.callTool({
      name: "echo_again",
      arguments: { input: "hi <b>there</b>", count: 5, file: [secret] },
    });
    const request = await waitingRequest(page);
    const texts = await request.locator(".sub").allInnerTexts();
    expect(texts.slice(0, 2)).toEqual([
      `Tool fixture · Echo (${TOOLS_ID}/echo) · action Again`,
      'With: {"input":"hi <b>there</b>","count":5,"flag":false,"pick":"one","source":"","headers":[]}',
    ]);
    expect(texts[2]).toMatch(
      /^Allow lets Echo read these files for this one run\. No answer by \d{1,2}:\d{2}:\d{2}\s[AP]M is a no\.$/,
    );
    expect(await request.locator("b").count()).toBe(0);
    await request.locator('[data-answer="deny"]').click();
    expect(await call).toEqual(refusal("the person denied Echo access to 1 file in svc's notch: the tool did not run"));
    await callHost(main.world, "PUT", `/v1/tools/${TOOLS_ID}/echo/agents`, { enabled: false });
    await page.close();
  });

  it("holds 4 requests at once (the limit) and refuses the one past it; an agent that cancels withdraws its question", async () => {
    const page = await openUi(main.world, ui.context);
    const calls = Array.from({ length: 4 }, () => readCall(main, secret));
    await expectWaiting(page, 4);
    expect(await readCall(main, secret)).toEqual(
      refusal(
        "4 requests for files already wait for the person's answer in svc's notch: wait for those, then call Read again",
      ),
    );
    for (let left = 4; left > 0; left--) {
      await page.locator('[data-answer="deny"]').first().click();
      await expectWaiting(page, left - 1);
    }
    for (const answer of await Promise.all(calls))
      expect(answer).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^the person denied Read/) }],
      });
    await expectWaiting(page, 0);
    // The MCP client cancels its call (notifications/cancelled): the question leaves the notch.
    const cancel = new AbortController();
    const cancelled = main.client.callTool({ name: "read_read", arguments: { file: [secret] } }, undefined, {
      signal: cancel.signal,
    });
    await waitingRequest(page);
    cancel.abort();
    await expect(cancelled).rejects.toThrow();
    await expectWaiting(page, 0);
    await page.close();
  });

  it("Allow takes no click for its first 500 ms: a click at once and at 499 ms does nothing (nothing queued), at 500 ms it allows", async () => {
    const page = await pagePausedClock();
    const from = main.host.events.length;
    const call = readCall(main, secret);
    const request = await waitingRequest(page);
    const allow = request.locator('[data-answer="allow"]');
    expect(await allow.isDisabled()).toBe(true);
    expect(await request.locator('[data-answer="deny"]').isDisabled()).toBe(false);
    // Visibly off: faded, and the pointer says so.
    expect(await allow.evaluate((b) => [getComputedStyle(b).opacity, getComputedStyle(b).cursor])).toEqual([
      "0.45",
      "not-allowed",
    ]);
    await clickAllow(page);
    await page.clock.runFor(499);
    expect(await allow.isDisabled()).toBe(true);
    await clickAllow(page);
    await page.clock.runFor(1);
    await page.waitForSelector('[data-answer="allow"]:not([disabled])');
    // Neither click was kept for later: the request still waits, the tool has not run.
    expect(await request.getAttribute("data-request")).toBeTruthy();
    expect(await page.locator(".agent-files-request").count()).toBe(1);
    expect(allowedLines(from)).toEqual([]);
    // A notify line coming (or going) never moves a request: the requests are drawn above it.
    const before = await allow.boundingBox();
    await page.evaluate(() => {
      const app = document.querySelector("svc-app") as unknown as { receive(event: unknown): void };
      app.receive({ type: "notify", extensionId: "com.example.other", title: "Two\nlines", body: "x ".repeat(200) });
    });
    await page.waitForSelector(".notify-line");
    expect(await allow.boundingBox()).toEqual(before);
    expect(await allow.isDisabled()).toBe(false);
    await clickAllow(page);
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(allowedLines(from)).toHaveLength(1);
    await expectWaiting(page, 0);
    await page.close();
  });

  it("a request swapped under the pointer takes no click for 500 ms from the swap: ~/.ssh is never allowed", async () => {
    const sshKey = join(main.world.userHome, ".ssh", "id_ed25519");
    await mkdir(join(main.world.userHome, ".ssh"), { recursive: true });
    await writeFile(sshKey, "-----BEGIN OPENSSH PRIVATE KEY-----");
    const page = await pagePausedClock();
    const from = main.host.events.length;
    // Request 1: a harmless file. The person waits, reads it, and rests the pointer on Allow.
    const withdraw = new AbortController();
    const first = main.client.callTool({ name: "read_read", arguments: { file: [secret] } }, undefined, {
      signal: withdraw.signal,
    });
    const request = await waitingRequest(page);
    const firstId = await request.getAttribute("data-request");
    await page.clock.runFor(500);
    await page.waitForSelector('[data-answer="allow"]:not([disabled])');
    const box = (await request.locator('[data-answer="allow"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The agent swaps it: withdraws request 1 and asks for ~/.ssh at once.
    withdraw.abort();
    await expect(first).rejects.toThrow();
    const second = readCall(main, sshKey);
    await expect
      .poll(() => page.locator(".agent-files-request .agent-files-list code").allInnerTexts(), { timeout: 10_000 })
      .toEqual([await realpath(sshKey)]);
    expect(await page.locator(".agent-files-request").getAttribute("data-request")).not.toBe(firstId);
    // The click aimed at request 1's Allow lands on request 2's, at once and at 499 ms: nothing.
    await clickAllow(page);
    await page.clock.runFor(499);
    await clickAllow(page);
    expect(await page.locator('[data-answer="allow"]').isDisabled()).toBe(true);
    await page.clock.runFor(1);
    await page.waitForSelector('[data-answer="allow"]:not([disabled])');
    expect(await page.locator(".agent-files-request").count()).toBe(1);
    // The person, now reading it, denies: the host had received no approval, so the agent hears the denial.
    await page.locator('[data-answer="deny"]').click();
    expect(await second).toEqual(
      refusal("the person denied Read access to 1 file in svc's notch: the tool did not run"),
    );
    expect(allowedLines(from)).toEqual([]);
    expect(
      main.host.events
        .slice(from)
        .some((e) => e.type === "status" && e.extensionId === TOOLS_ID && e.status === "running"),
    ).toBe(false);
    await expectWaiting(page, 0);
    await page.close();
  });

  it("the answer route keeps every guard: no session, a foreign Origin", async () => {
    const page = await openUi(main.world, ui.context);
    const origin = new URL(page.url()).origin;
    const bare = await fetch(`${origin}/api/agent-files`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"id":"x","allow":true}',
    });
    expect(bare.status).toBe(401);
    const token = await page.evaluate(() => sessionStorage.getItem("svc.session"));
    const foreign = await fetch(`${origin}/api/agent-files`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, origin: "http://evil.example" },
      body: '{"id":"x","allow":true}',
    });
    expect(foreign.status).toBe(403);
    await page.close();
  });

  it(
    "no answer in time (here 2 s) refuses the agent and takes the request off the notch",
    { timeout: 90_000 },
    async () => {
      late = await startScene(2_000);
      await callHost(late.world, "PUT", `/v1/tools/${TOOLS_ID}/read/agents`, { enabled: true });
      const page = await openUi(late.world, ui.context);
      const call = readCall(late, secret);
      await waitingRequest(page);
      expect(await call).toEqual(
        refusal(
          "the person did not answer within 2 s in svc's notch: Read did not run. Call again when they can answer",
        ),
      );
      await expectWaiting(page, 0);
      await page.close();
    },
  );
});
