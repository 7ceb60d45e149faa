import { describe, expect, it } from "vitest";
import { runConformance, summaryLines } from "./runner.js";

describe("conformance", () => {
  it("runs", { timeout: 300_000 }, async () => {
    const results = await runConformance();
    console.log(summaryLines(results).join("\n"));
    for (const r of results) for (const t of r.tests) {
      const s = r.sandbox.get(t), n = r.node.get(t);
      if (!s?.ok || !n?.ok) console.log(`${t}\n   sandbox: ${s?.ok ? "pass" : s?.message}\n   node: ${n?.ok ? "pass" : n?.message}`);
    }
    expect(results.length).toBeGreaterThan(0);
  });
});
