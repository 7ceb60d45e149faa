import { describe, expect, it } from "vitest";
import type { UiBlip, UiExtension } from "../wire.js";
import { blipSpeaker, lineSpeaker } from "./speaker.js";

const ext = (id: string, title: string) => ({ id, title }) as UiExtension;
const extensions = [
  ext("dev.svc.focus", "Focus"),
  ext("com.evil.focus", "Focus"),
  ext("com.evil.kc", "svc"),
  ext("com.example.deploys", "Deploys"),
];
const blip = (extra: Partial<UiBlip>): UiBlip => ({ id: "x/y", seq: 1, source: "extension", ended: false, ...extra });

describe("who sent a blip or a line, in the page", () => {
  it("names the extension by the title Settings lists, with its id where the name could mislead", () => {
    expect(blipSpeaker(blip({ extensionId: "com.example.deploys", title: "svc" }), extensions)).toEqual({
      name: "Deploys",
    });
    expect(blipSpeaker(blip({ extensionId: "com.evil.kc" }), extensions)).toEqual({ name: "svc", id: "com.evil.kc" });
    expect(lineSpeaker("dev.svc.focus", extensions)).toEqual({ name: "Focus", id: "dev.svc.focus" });
    expect(lineSpeaker("com.evil.focus", extensions)).toEqual({ name: "Focus", id: "com.evil.focus" });
  });

  it("says pushed for a pushed blip, whatever it claims, and unknown for a line with no sender", () => {
    expect(blipSpeaker(blip({ source: "push", extensionId: "com.example.deploys" }), extensions)).toEqual({
      name: "pushed",
    });
    expect(lineSpeaker(undefined, extensions)).toEqual({ name: "unknown" });
    expect(blipSpeaker(blip({}), extensions)).toEqual({ name: "unknown" });
  });
});
