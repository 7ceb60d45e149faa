import { describe, expect, it } from "vitest";
import { supportFolder } from "./support-folder.js";

describe("supportFolder", () => {
  it("prefers SVC_HOME on every platform", () => {
    expect(supportFolder({ SVC_HOME: "/tmp/svc" }, "darwin", "/Users/ann")).toBe("/tmp/svc");
  });
  it("uses DESIGN.md's platform defaults", () => {
    expect(supportFolder({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/Svc");
    expect(supportFolder({}, "linux", "/home/ann")).toBe("/home/ann/.local/share/Svc");
    expect(supportFolder({ XDG_DATA_HOME: "/data" }, "linux", "/home/ann")).toBe("/data/Svc");
  });
  it("is the host's folder, even where the environment is odd (a relative XDG_DATA_HOME is ignored)", () => {
    expect(supportFolder({ XDG_DATA_HOME: "relative/dir" }, "linux", "/home/ann")).toBe("/home/ann/.local/share/Svc");
    expect(supportFolder({ APPDATA: "" }, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Roaming\\Svc");
  });
});
