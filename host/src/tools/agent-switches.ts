/**
 * Which tools the person has switched on for AI agents (`svckit mcp`). Off by default: a tool
 * is offered to agents only once the person says so, in Settings or through
 * `PUT /v1/tools/<extension-id>/<tool>/agents`.
 *
 * Kept in `<support>/agent-tools.json` as `{"enabled": ["<extension-id>/<tool>", …]}` (mode
 * 0600, written whole and atomically, one change at a time). A switch outlives a reload of its
 * tool, not the extension: uninstalling turns every switch of the extension off, so a later
 * package with the same id starts with none (`clearExtension`). A file that is not
 * that shape is moved aside (`agent-tools.json.corrupt-<ms>`) and every switch starts off.
 */
import { readFile, rename } from "node:fs/promises";
import { writeFileAtomic } from "../support/index.js";

export type SwitchLog = (level: "warn", message: string) => void;

/**
 * @example
 * const switches = await AgentSwitches.open("/…/Svc/agent-tools.json", log);
 * await switches.set("dev.svc.devtools/json", true);
 * switches.isOn("dev.svc.devtools/json") // true
 */
export class AgentSwitches {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private enabled: ReadonlySet<string>,
  ) {}

  static async open(file: string, log: SwitchLog): Promise<AgentSwitches> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new AgentSwitches(file, new Set());
      throw error;
    }
    const enabled = parseSwitches(text);
    if (enabled) return new AgentSwitches(file, new Set(enabled));
    const aside = `${file}.corrupt-${Date.now()}`;
    await rename(file, aside);
    log(
      "warn",
      `${file} was not {"enabled": [<tool ids>]}: moved to ${aside}; every tool is off for agents until switched on again`,
    );
    return new AgentSwitches(file, new Set());
  }

  isOn(toolId: string): boolean {
    return this.enabled.has(toolId);
  }

  /** Every tool id switched on, sorted. */
  list(): string[] {
    return [...this.enabled].sort();
  }

  /** Switches one tool on or off; it counts once the file is written (a failed write changes nothing). */
  set(toolId: string, on: boolean): Promise<void> {
    return this.change((next) => {
      if (on) next.add(toolId);
      else next.delete(toolId);
    });
  }

  /** Turns off every tool of `extensionId` (uninstall); resolves with the ids that were on. */
  async clearExtension(extensionId: string): Promise<string[]> {
    const prefix = `${extensionId}/`;
    const cleared = this.list().filter((toolId) => toolId.startsWith(prefix));
    if (cleared.length) await this.change((next) => cleared.forEach((toolId) => next.delete(toolId)));
    return cleared;
  }

  private change(edit: (next: Set<string>) => void): Promise<void> {
    const write = this.writing.then(async () => {
      const next = new Set(this.enabled);
      edit(next);
      const text = JSON.stringify({ enabled: [...next].sort() }, null, 2);
      await writeFileAtomic(this.file, `${text}\n`, { mode: 0o600 });
      this.enabled = next;
    });
    this.writing = write.catch(() => {});
    return write;
  }
}

function parseSwitches(text: string): string[] | undefined {
  try {
    const parsed = JSON.parse(text) as { enabled?: unknown };
    const { enabled } = parsed ?? {};
    return Array.isArray(enabled) && enabled.every((id) => typeof id === "string") ? (enabled as string[]) : undefined;
  } catch {
    return undefined;
  }
}
