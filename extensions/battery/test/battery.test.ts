/**
 * Battery with @svc/testkit (`svckit test`): /sys is a folder this test lays out as Linux does
 * (each /sys/class/power_supply entry a symlink into /sys/devices, a `uevent` file of
 * POWER_SUPPLY_* lines, per the kernel's power_supply_class.rst), and `upower -d` is replayed
 * from test/recordings (written from upower's own printing code).
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadExtension } from "@svc/testkit";

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

/** A /sys with the given supplies: name → [device folder under /sys/devices, uevent lines]. */
async function sys(supplies: Record<string, [string, string[]]>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "svc-battery-sys-"));
  roots.push(root);
  await mkdir(join(root, "class/power_supply"), { recursive: true });
  for (const [name, [device, lines]] of Object.entries(supplies)) {
    const folder = join(root, "devices", device, "power_supply", name);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "uevent"), `${lines.join("\n")}\n`);
    await symlink(join("../../devices", device, "power_supply", name), join(root, "class/power_supply", name));
  }
  return root;
}

const AC = (online: 0 | 1): [string, string[]] => [
  "LNXSYSTM:00/LNXSYBUS:00/ACPI0003:00",
  ["POWER_SUPPLY_NAME=AC", "POWER_SUPPLY_TYPE=Mains", `POWER_SUPPLY_ONLINE=${online}`],
];
const BAT0 = (status: string, energyNow: number, powerNow: number): [string, string[]] => [
  "LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00",
  [
    "POWER_SUPPLY_NAME=BAT0",
    "POWER_SUPPLY_TYPE=Battery",
    `POWER_SUPPLY_STATUS=${status}`,
    "POWER_SUPPLY_PRESENT=1",
    "POWER_SUPPLY_TECHNOLOGY=Li-poly",
    "POWER_SUPPLY_CYCLE_COUNT=112",
    "POWER_SUPPLY_VOLTAGE_MIN_DESIGN=11550000",
    "POWER_SUPPLY_VOLTAGE_NOW=12100000",
    `POWER_SUPPLY_POWER_NOW=${powerNow}`,
    "POWER_SUPPLY_ENERGY_FULL_DESIGN=57000000",
    "POWER_SUPPLY_ENERGY_FULL=50000000",
    `POWER_SUPPLY_ENERGY_NOW=${energyNow}`,
    `POWER_SUPPLY_CAPACITY=${Math.round((energyNow / 50000000) * 100)}`,
    "POWER_SUPPLY_CAPACITY_LEVEL=Normal",
    "POWER_SUPPLY_MODEL_NAME=5B10W13930",
    "POWER_SUPPLY_MANUFACTURER=SMP",
    "POWER_SUPPLY_SERIAL_NUMBER=1234",
  ],
];

async function load(folder: string, programs: string) {
  return loadExtension(".", { folders: { "/sys": folder }, programs: `test/recordings/${programs}.programs.json` });
}

test("on battery: how full, the time left, and the other devices' batteries", async (t) => {
  const ext = await load(await sys({ AC: AC(0), BAT0: BAT0("Discharging", 40_500_000, 12_000_000) }), "devices");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const battery = ext.blip("battery");
  assert.equal(battery?.layout, "stat");
  assert.equal(battery?.icon, "battery.75");
  assert.equal(battery?.state, "idle");
  // 40.5 Wh at 12 W: 3 h 22 m 30 s.
  assert.deepEqual(battery?.data, { value: { type: "percent", value: 0.81 }, label: "3h 22m left" });
  assert.equal(battery?.staleAfter, new Date(ext.clock.now() + 120_000).toISOString());
  const devices = ext.blip("devices");
  assert.equal(devices?.layout, "list");
  assert.deepEqual((devices?.data as { items: unknown[] }).items, [
    {
      id: "device-1",
      title: "MX Master 3",
      subtitle: "mouse",
      icon: "computermouse",
      value: { type: "percent", value: 0.7 },
    },
    {
      id: "device-2",
      title: "WH-1000XM4",
      subtitle: "headset",
      icon: "headphones",
      value: { type: "percent", value: 0.15 },
      state: "warning",
    },
  ]);
  assert.deepEqual(ext.denials, []);
});

test("charging: the time until full, drawn as under way", async (t) => {
  const ext = await load(await sys({ AC: AC(1), BAT0: BAT0("Charging", 25_000_000, 25_000_000) }), "desktop");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const battery = ext.blip("battery");
  assert.equal(battery?.icon, "battery.100.bolt");
  assert.equal(battery?.state, "running");
  assert.deepEqual(battery?.data, { value: { type: "percent", value: 0.5 }, label: "Charging · full in 1h" });
  assert.equal(ext.blip("devices"), undefined);
});

test("low battery is a warning, very low a failure", async (t) => {
  const ext = await load(await sys({ BAT0: BAT0("Discharging", 9_000_000, 9_000_000) }), "desktop");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.blip("battery")?.state, "warning");
  assert.equal(ext.blip("battery")?.icon, "battery.25");
  const lower = await load(await sys({ BAT0: BAT0("Discharging", 4_000_000, 9_000_000) }), "desktop");
  t.after(() => lower.dispose());
  await lower.run("launch");
  assert.equal(lower.blip("battery")?.state, "failure");
  assert.equal(lower.blip("battery")?.icon, "battery.0");
});

test("no battery and no upower (this VM): says so plainly and what to install", async (t) => {
  const ext = await load(await sys({}), "no-upower");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.blips.length, 1);
  const battery = ext.blip("battery");
  assert.equal(battery?.icon, "powerplug");
  assert.deepEqual(battery?.data, {
    value: "No battery",
    label: "This computer has none; install upower to see other devices' batteries",
  });
});

test("a desktop with upower but no battery anywhere: says so", async (t) => {
  const ext = await load(await sys({ AC: AC(1) }), "desktop");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(ext.blip("battery")?.data, {
    value: "No battery",
    label: "This computer has none, and no other device reports one",
  });
});

test("a desktop with a mouse: only the devices, no empty battery beside them", async (t) => {
  const ext = await load(await sys({}), "devices");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.battery/devices"],
  );
});
