import { describe, expect, it } from "vitest";
import { nameSkeleton, PUSHED_SPEAKER, UNKNOWN_SPEAKER, SPEAKER_NAME_MAX, speakerOf, speakerText } from "./speaker.js";

const focus = { id: "dev.svc.focus", title: "Focus" };

describe("who is speaking", () => {
  it("names an extension by its catalog title, and pushed blips as pushed", () => {
    expect(speakerOf("dev.svc.focus", [focus])).toEqual({ name: "Focus" });
    expect(speakerOf("com.example.deploys", [focus, { id: "com.example.deploys", title: "Déploiements" }])).toEqual({
      name: "Déploiements",
    });
    expect(speakerOf(undefined, [focus])).toEqual({ name: PUSHED_SPEAKER });
    expect(PUSHED_SPEAKER).toBe("pushed");
    expect(UNKNOWN_SPEAKER).toBe("unknown");
  });

  it("names an id the catalog no longer holds by the id", () => {
    expect(speakerOf("com.gone.away", [focus])).toEqual({ name: "com.gone.away" });
  });

  it("adds the id to a name that mimics svc or pushed, however it is spelt", () => {
    for (const title of [
      "svc",
      "SVC",
      "S V C",
      "s.v.c",
      "Ѕvс",
      "5vc",
      "svc-host",
      "svc keychain",
      "Pushed",
      "pu5hed",
      "Unknown",
    ])
      expect(speakerOf("com.evil.kc", [focus, { id: "com.evil.kc", title }]), title).toEqual({
        name: title,
        id: "com.evil.kc",
      });
  });

  it("adds the id to both of two names that read the same, but not to a third that differs", () => {
    const catalog = [focus, { id: "com.evil.focus", title: "FOCUS" }, { id: "com.other.fokus", title: "Fokus" }];
    expect(speakerOf("dev.svc.focus", catalog)).toEqual({ name: "Focus", id: "dev.svc.focus" });
    expect(speakerOf("com.evil.focus", catalog)).toEqual({ name: "FOCUS", id: "com.evil.focus" });
    expect(speakerOf("com.other.fokus", catalog)).toEqual({ name: "Fokus" });
    // Look-alike letters and accents are folded before comparing.
    expect(speakerOf("com.evil.f", [focus, { id: "com.evil.f", title: "Fосus" }])).toEqual({
      name: "Fосus",
      id: "com.evil.f",
    });
    expect(speakerOf("com.evil.f", [focus, { id: "com.evil.f", title: "Fōcus" }]).id).toBe("com.evil.f");
  });

  it("adds the id to a name holding a frame character (: [ ] · | /) or nothing readable", () => {
    for (const title of ["Focus: done", "[Focus]", "Focus · 2", "a|b", "a/b", "🔔", "…"])
      expect(speakerOf("com.x.y", [{ id: "com.x.y", title }]).id, title).toBe("com.x.y");
    for (const title of ["Tom's timer", "R&D board", "C++ build", "dev_tools 2.0", "Café-Bar", "حالة الخادم"])
      expect(speakerOf("com.x.y", [{ id: "com.x.y", title }]), title).toEqual({ name: title });
  });

  it(`shows ${SPEAKER_NAME_MAX} characters of a name whole, and clips one past it with the id`, () => {
    const at = "a".repeat(SPEAKER_NAME_MAX);
    expect(speakerOf("com.x.y", [{ id: "com.x.y", title: at }])).toEqual({ name: at });
    expect(speakerOf("com.x.y", [{ id: "com.x.y", title: `${at}b` }])).toEqual({
      name: `${"a".repeat(SPEAKER_NAME_MAX - 1)}…`,
      id: "com.x.y",
    });
  });

  it("folds names to a skeleton and frames the speaker as one text", () => {
    expect(nameSkeleton("S V C")).toBe("svc");
    expect(nameSkeleton("Ѕvс")).toBe("svc");
    expect(nameSkeleton("Ｓｖｃ")).toBe("svc");
    expect(nameSkeleton("Fōcus")).toBe("focus");
    expect(speakerText({ name: "Focus" })).toBe("Focus");
    expect(speakerText({ name: "svc", id: "com.evil.kc" })).toBe("svc · com.evil.kc");
  });
});
