import { describe, expect, it } from "vitest";
import { describeBlip, isStale } from "./describe.js";
import type { UiBlip } from "../wire.js";

const NOW = Date.parse("2025-03-01T10:00:00Z");
const blip = (extra: Partial<UiBlip>): UiBlip => ({
  id: "e/x",
  seq: 1,
  source: "extension",
  ended: false,
  stale: false,
  title: "Deploy api",
  ...extra,
});

describe("describeBlip", () => {
  it("says title, state and the main figure", () => {
    expect(describeBlip(blip({ state: "running", layout: "progress", data: { fraction: 0.4 } }), "en-US", NOW)).toBe(
      "Deploy api, running, 40 percent",
    );
    expect(describeBlip(blip({ layout: "countdown", data: { endsAt: "2025-03-01T10:05:00Z" } }), "en-US", NOW)).toBe(
      "Deploy api, 5m left",
    );
    expect(
      describeBlip(blip({ layout: "list", data: { items: [{ id: "a", title: "a" }], total: 12 } }), "en-US", NOW),
    ).toBe("Deploy api, 12 items");
    expect(describeBlip(blip({ state: "success", ended: true }), "en-US", NOW)).toBe("Deploy api, succeeded, ended");
    expect(describeBlip(blip({ state: "running" }), "en-US", NOW, { name: "Deploys" })).toBe(
      "Deploy api, running, from Deploys",
    );
    expect(describeBlip(blip({ title: "svc" }), "en-US", NOW, { name: "svc", id: "com.evil.kc" })).toBe(
      "svc, from svc · com.evil.kc",
    );
  });

  it("escapes a stranger's title", () => {
    expect(describeBlip(blip({ title: "invoice\u202Eexe.pdf" }), "en-US", NOW)).toBe("invoice\\u{202e}exe.pdf");
  });

  it("marks a blip stale after staleAfter, not before", () => {
    expect(isStale(blip({ staleAfter: "2025-03-01T09:59:59Z" }), NOW)).toBe(true);
    expect(isStale(blip({ staleAfter: "2025-03-01T10:00:00Z" }), NOW)).toBe(false);
    // Marked by the host at wake: stale until its next update, whatever the page's clock says.
    expect(isStale(blip({ stale: true, staleAfter: "2025-03-01T11:00:00Z" }), NOW)).toBe(true);
    expect(isStale(blip({ stale: true }), NOW)).toBe(true);
    expect(describeBlip(blip({ state: "idle", staleAfter: "2025-03-01T09:00:00Z" }), "en-US", NOW)).toBe(
      "Deploy api, idle, not updated lately",
    );
  });
});
