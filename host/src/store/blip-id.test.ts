import { describe, expect, it } from "vitest";
import { idCandidates, pushedBlipId, slugFromTitle } from "./blip-id.js";

describe("slugFromTitle", () => {
  it("lower-cases and hyphenates", () => {
    expect(slugFromTitle("Deploy API: v2!")).toBe("deploy-api-v2");
    expect(slugFromTitle("  many   spaces  ")).toBe("many-spaces");
    expect(slugFromTitle("Größe prüfen")).toBe("größe-prüfen");
    expect(slugFromTitle("東京 デプロイ")).toBe("東京-デプロイ");
    expect(slugFromTitle("!!!")).toBe("");
  });

  it("keeps at most 64 characters, cutting at a word", () => {
    const slug = slugFromTitle(`${"word ".repeat(30)}`);
    expect(slug.length).toBeLessThanOrEqual(64);
    expect(slug).toBe(Array(13).fill("word").join("-"));
    expect(slugFromTitle("x".repeat(100))).toBe("x".repeat(64));
  });
});

describe("pushed ids", () => {
  it("prefixes an id without / and keeps one with", () => {
    expect(pushedBlipId("deploy")).toBe("webhook/deploy");
    expect(pushedBlipId("ci/build")).toBe("ci/build");
  });

  it("looks an id up with and without the prefix", () => {
    expect(idCandidates("deploy")).toEqual(["webhook/deploy"]);
    expect(idCandidates("webhook/deploy")).toEqual(["webhook/deploy", "webhook/webhook/deploy"]);
  });
});
