/**
 * The builders and the kit run inside an extension's QuickJS sandbox, which has no Node APIs
 * (no Buffer, no process, no Intl). Bundle them as svckit would and run them there.
 */
import { describe, expect, it } from "vitest";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core";
import variantModule from "@jitl/quickjs-ng-wasmfile-release-sync";

// The package's types describe its CommonJS face; under ESM the default export is the variant itself.
const variant = ((variantModule as { default?: QuickJSSyncVariant }).default ?? variantModule) as QuickJSSyncVariant;

const entry = `
import * as builders from "./builders/index.ts";
import * as kit from "./kit/index.ts";
const NOW = Date.parse("2025-03-01T09:30:00.000Z");
const storage = kit.memoryStorage();
const out = {};
out.stat = builders.stat("revenue", { title: "Revenue", value: builders.currency(1250, "eur"), delta: builders.percent(12, 100), staleAfter: 1740830400 });
out.countdown = builders.countdown("c", { title: "C", endsAt: 1740830400000, startedAt: "2025-03-01T09:00:00Z" });
out.blocks = [builders.status("ok", "positive"), builders.table({ At: builders.date(1740821400) }), builders.color("abc"), builders.text("hi")];
out.wording = [kit.age(NOW - 3 * 60000, NOW), kit.timeLeft(NOW + 2 * 3600000, NOW), kit.howLong(NOW - 200000, NOW),
  kit.clip("Fix the flaky login test on CI", 16), kit.names(["Ana", "Bo", "Cy", "Di", "Ed"]), kit.joinLine(["#1", null, "x"])];
out.snooze = kit.snoozeUntil("monday", NOW, { utcOffset: 0 });
out.wait = [kit.backoff(3, { random: () => 0.5 }), kit.waitForReset({ "Retry-After": "120" }, NOW)];
out.connection = kit.connectionBlip("inbox", kit.problemOf(401), { title: "GitHub" });
kit.applyTriage(storage, { actionId: kit.TRIAGE.done.id, key: "inbox", itemId: "pr-1" }, { now: NOW })
  .then(() => kit.readTriage(storage, undefined, NOW))
  .then((book) => { out.triage = kit.triaged([{ id: "pr-1", title: "One" }, { id: "pr-2", title: "Two" }], book, { now: NOW }); globalThis.done = JSON.stringify(out); });
`;

describe("builders and kit in the QuickJS sandbox", () => {
  it("run with no Node APIs and give the same answers", async () => {
    const bundle = await build({
      stdin: { contents: entry, resolveDir: fileURLToPath(new URL("..", import.meta.url)), loader: "ts" },
      bundle: true,
      write: false,
      format: "iife",
      platform: "neutral",
      target: "es2022",
      logLevel: "silent",
    });
    const code = bundle.outputFiles[0].text;
    expect(code).not.toMatch(/require\(|from "node:/);

    const quickjs = await newQuickJSWASMModuleFromVariant(variant);
    const vm = quickjs.newContext();
    try {
      vm.unwrapResult(vm.evalCode(code)).dispose();
      vm.runtime.executePendingJobs();
      const result = vm.getProp(vm.global, "done");
      const json = vm.dump(result);
      result.dispose();
      expect(typeof json).toBe("string");
      const out = JSON.parse(json);
      expect(out.stat).toEqual({
        key: "revenue",
        title: "Revenue",
        staleAfter: "2025-03-01T12:00:00.000Z",
        layout: "stat",
        data: {
          value: { type: "currency", value: { amount: 1250, currency: "EUR" } },
          delta: { type: "percent", value: 0.12 },
        },
      });
      expect(out.countdown.data).toEqual({ endsAt: "2025-03-01T12:00:00.000Z", startedAt: "2025-03-01T09:00:00.000Z" });
      expect(out.blocks[1]).toEqual({
        type: "table",
        rows: [{ name: "At", value: { type: "date", value: "2025-03-01T09:30:00.000Z" } }],
      });
      expect(out.wording).toEqual(["3m ago", "in 2h", "3m 20s", "Fix the flaky l…", "Ana, Bo and 3 others", "#1 · x"]);
      expect(out.snooze).toBe("2025-03-03T09:00:00.000Z");
      expect(out.wait).toEqual([60, 120]);
      expect(out.connection.actions[0].id).toBe("svc.connect");
      expect(out.triage.map((item: { id: string; state?: string }) => [item.id, item.state])).toEqual([
        ["pr-2", undefined],
        ["pr-1", "success"],
      ]);
    } finally {
      vm.dispose();
    }
  });
});
