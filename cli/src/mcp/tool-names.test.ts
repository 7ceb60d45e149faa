import { describe, expect, it } from "vitest";
import { mcpNames } from "./tool-names.js";

const req = (extensionId: string, tool: string, action: string, several = true) => ({
  toolId: `${extensionId}/${tool}`,
  extensionId,
  tool,
  action,
  several,
});

describe("mcpNames", () => {
  it("names each action <tool>_<action>, a single action just <tool>", () => {
    expect(
      mcpNames([
        req("dev.svc.devtools", "json", "format"),
        req("dev.svc.devtools", "json", "minify"),
        req("dev.svc.devtools", "jwt", "decode", false),
      ]),
    ).toEqual(["json_format", "json_minify", "jwt"]);
  });

  it("puts the extension's last id part in front when two extensions would collide, then a hash", () => {
    expect(mcpNames([req("com.a.tools", "json", "x", false), req("com.b.dev", "json", "x", false)])).toEqual([
      "tools_json",
      "dev_json",
    ]);
    const [one, two] = mcpNames([req("com.a.tools", "json", "x", false), req("org.b.tools", "json", "x", false)]);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^tools_json_[0-9a-f]{8}$/);
  });

  it("always fits [A-Za-z0-9_-]{1,64}", () => {
    const long = "t".repeat(64);
    const names = mcpNames([req("com.x", long, "a".repeat(64)), req("com.x", "ünïcode", "dø")]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(names[1]).toBe("n_code_d");
  });
});
