/**
 * Agent Sessions end to end, as a person uses it: the real svc-hook (host/dist/hook/main.js) is
 * called the way Claude Code's PreToolUse hook calls it (its documented input on stdin), the real
 * svc-host holds the request, the bundled extension (extensions/agents, built) shows the approval
 * in the page in Chromium, and the person's click on Approve answers it: svc-hook prints Claude
 * Code's allow. With nobody answering, the wait runs out and svc-hook prints its --otherwise, "ask":
 * the agent's own prompt decides, never an automatic allow.
 */
import { spawn } from "node:child_process";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../host/harness.js";
import { openUi, SCREENSHOTS, useUiScene } from "./harness.js";

const AGENTS = join(REPO, "extensions", "agents");
const HOOK = join(REPO, "host", "dist", "hook", "main.js");
const ID = "app.svc.agents";
const SESSION = `${ID}/claude-9f2c1d7e-5a4b-4c3d-8e9f-0a1b2c3d4e5f`;
/** What README.md tells the person to put after --otherwise for PreToolUse. */
const ASK = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}';

const scene = useUiScene({
  setup: async (world) => {
    await cp(join(AGENTS, "package.json"), join(world.bundled, "agents", "package.json"));
    await cp(join(AGENTS, "dist"), join(world.bundled, "agents", "dist"), { recursive: true });
  },
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${ID}/setup`, { timeoutMs: 20_000 }),
});

async function claudeInput(event: string): Promise<string> {
  const inputs = JSON.parse(await readFile(join(AGENTS, "test", "hook-inputs", "claude.json"), "utf8"));
  return JSON.stringify(inputs[event]);
}

/** svc-hook as Claude Code runs it: the hook input on stdin; resolves when it exits. */
function svcHook(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [HOOK, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: scene.world.userHome, SVC_HOME: scene.world.home },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("approving a tool call from the notch", () => {
  it("the held PreToolUse shows Approve and Deny; the click on Approve answers Claude Code with allow", async () => {
    const from = scene.host.events.length;
    const hook = svcHook(["send", ID, "--wait", "60", "--otherwise", ASK], await claudeInput("PreToolUse"));
    const asking = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === SESSION && e.blip.state === "waiting",
      {
        from,
        timeoutMs: 20_000,
      },
    );
    expect(asking.blip.data.step).toBe("Wants to use Bash: npm test -- login");
    const page = await openUi(scene.world, scene.ui.context);
    const card = page.locator(`[data-blip="${SESSION}"]`);
    await card.locator("button", { hasText: "Approve" }).waitFor();
    await expect(card.locator("button", { hasText: "Deny" }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, "agents-approval.png") });
    await card.locator("button", { hasText: "Approve" }).click();
    const answered = await hook;
    expect(answered).toEqual({
      code: 0,
      stdout:
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"Approved in svc"}}\n',
      stderr: "",
    });
    const after = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === SESSION && e.blip.data.step === "Approved: Bash",
      { from },
    );
    expect(after.blip.actions).toBeUndefined();
    await card.locator("button", { hasText: "Approve" }).waitFor({ state: "detached" });
    await page.close();
  });

  it("nobody answers: when the wait runs out svc-hook prints ask, and the agent's own prompt decides", async () => {
    const from = scene.host.events.length;
    const hook = svcHook(["send", ID, "--wait", "1", "--otherwise", ASK], await claudeInput("PreToolUse"));
    // The extension had it: the approval was shown before the wait ran out.
    await scene.host.waitFor((e) => e.type === "blip" && e.id === SESSION && e.blip.actions?.length === 2, { from });
    expect(await hook).toEqual({ code: 0, stdout: `${ASK}\n`, stderr: "" });
  });
});
