/**
 * `svckit build` and `validate` on icons svc does not draw: a warning naming where, the name and
 * the nearest listed one; the build still succeeds (the page draws a placeholder).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { svckit, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
beforeEach(async () => {
  folder = await tempFolder("svckit-icons-");
});
afterEach(() => folder.remove());

const LIST = `The names are listed in @svc/api's README, "Icons".`;

const TOOL_SOURCE = `import { defineExtension, number, stat, tool } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    await ctx.emit(stat("cpu", { title: "CPU", icon: "guage", value: number(3),
      actions: [{ id: "more", title: "More", icon: "elipsis" }] }));
    await ctx.emit(stat("ok", { title: "Fine", icon: "gauge.with.dots.needle.67percent.fill", value: number(1) }));
  },
  tools: {
    upper: tool({ id: "upper", title: "Upper", icon: "textformatt",
      actions: [{ id: "go", title: "Go", icon: "play" }],
      run: () => [] }),
  },
});
`;

describe("icons svc does not draw", () => {
  it("svckit build warns on the manifest's and the tools' icons, suggesting the nearest, and still builds", async () => {
    await writeFixture(folder.dir, { svc: { icon: "wifi.slashh" }, source: TOOL_SOURCE });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        `warning: package.json "svc.icon": icon "wifi.slashh" is not one svc draws (it shows a placeholder); did you mean "wifi.slash"? ${LIST}`,
        `warning: tool "upper": icon "textformatt" is not one svc draws (it shows a placeholder); did you mean "textformat"? ${LIST}`,
      ].join("\n"),
    );
    expect(result.stdout).toMatch(/^built dist\/index\.js/);
  });

  it("svckit validate also warns on the icons of the blips update() emitted, and passes", async () => {
    await writeFixture(folder.dir, { source: TOOL_SOURCE });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.includes("not one svc draws"));
    expect(warnings).toEqual([
      `warning: tool "upper": icon "textformatt" is not one svc draws (it shows a placeholder); did you mean "textformat"? ${LIST}`,
      `warning: blip "com.example.fixture/cpu": icon "guage" is not one svc draws (it shows a placeholder); did you mean "gauge"? ${LIST}`,
      `warning: blip "com.example.fixture/cpu" action "more": icon "elipsis" is not one svc draws (it shows a placeholder); did you mean "ellipsis"? ${LIST}`,
    ]);
  });

  it("says nothing about listed names, with or without .fill", async () => {
    await writeFixture(folder.dir, { svc: { icon: "gauge.fill" } });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });
});
