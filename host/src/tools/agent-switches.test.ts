import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSwitches } from "./agent-switches.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-switches-"));
  dirs.push(dir);
  return join(dir, "agent-tools.json");
}

describe("AgentSwitches", () => {
  it("starts with every tool off when there is no file, and keeps what is set", async () => {
    const file = await tempFile();
    const switches = await AgentSwitches.open(file, () => {});
    expect(switches.isOn("a.b/c")).toBe(false);
    await Promise.all([switches.set("a.b/c", true), switches.set("a.b/d", true), switches.set("a.b/c", false)]);
    expect(switches.list()).toEqual(["a.b/d"]);
    expect((await AgentSwitches.open(file, () => {})).list()).toEqual(["a.b/d"]);
  });

  it("moves a file of another shape aside, says so, and starts with every tool off", async () => {
    const file = await tempFile();
    await writeFile(file, '{"enabled": "everything"}');
    const said: string[] = [];
    const switches = await AgentSwitches.open(file, (_level, message) => said.push(message));
    expect(switches.list()).toEqual([]);
    const names = await readdir(join(file, ".."));
    const aside = names.find((name) => name.startsWith("agent-tools.json.corrupt-"));
    expect(aside).toBeDefined();
    expect(await readFile(join(file, "..", aside!), "utf8")).toBe('{"enabled": "everything"}');
    expect(said[0]).toContain("every tool is off for agents until switched on again");
  });

  it("changes nothing when the file cannot be written", async () => {
    const file = await tempFile();
    const switches = await AgentSwitches.open(file, () => {});
    const folder = join(file, "..");
    await rm(folder, { recursive: true });
    await writeFile(folder, "a file where the support folder was");
    await expect(switches.set("a.b/c", true)).rejects.toThrow();
    expect(switches.isOn("a.b/c")).toBe(false);
  });
});
