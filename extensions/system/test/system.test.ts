/**
 * System with @svc/testkit (`svckit test`): it runs the machine's real df, free, uptime and
 * getconf through ctx.exec (fenced by permissions.exec), so the figures are this machine's; the
 * tests check what holds on any machine.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

test("one meter blip with the machine's gauges, each a fraction with its reading", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const machine = ext.blip("machine");
  assert.equal(machine?.layout, "meter");
  assert.equal(machine?.title, "System");
  const meters = (machine?.data as { meters: { label: string; fraction: number; value?: string }[] }).meters;
  assert.ok(meters.length >= 1 && meters.length <= 3, `1 to 3 gauges, got ${meters.length}`);
  for (const gauge of meters) {
    assert.ok(["Disk", "Memory", "Load"].includes(gauge.label), gauge.label);
    assert.ok(gauge.fraction >= 0 && gauge.fraction <= 1, `${gauge.label} fraction ${gauge.fraction}`);
    assert.equal(typeof gauge.value, "string");
  }
  assert.ok(["idle", "warning"].includes(String(machine?.state)));
  assert.deepEqual(ext.denials, []);
});

test("reads again every 30 s on the schedule", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.nextRunAt, ext.clock.now() + 30_000);
  await ext.clock.advance("1m");
  assert.equal(ext.updates.filter((u) => u.id === "dev.svc.system/machine").length, 3);
});
