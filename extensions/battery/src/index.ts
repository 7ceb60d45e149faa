/**
 * Battery: this computer's battery as a stat (how full, time left or until full, charging), read
 * from /sys/class/power_supply every minute, and other devices' batteries as a list from
 * `upower -d`. A computer without a battery says so plainly instead of showing a figure.
 */
import {
  defineExtension,
  durationText,
  joinLine,
  list,
  percent,
  runProgram,
  stat,
  type BlipInput,
  type Ctx,
  type ListItem,
} from "@svc/api";
import { parseUevent, peripheralSupplies, readBatteries, type BatteryReading, type Supply } from "./power-supply.js";
import { kindIcon, parseUpower, peripherals } from "./upower.js";

const SUPPLIES = "/sys/class/power_supply";
/** Two intervals: an older reading is drawn stale. */
const FRESH_FOR = 120;

async function readSupplies(ctx: Ctx): Promise<Supply[]> {
  if (!(await ctx.files.exists(SUPPLIES))) return [];
  const supplies: Supply[] = [];
  for (const name of await ctx.files.list(SUPPLIES)) {
    try {
      const supply = parseUevent(await ctx.files.read(`${SUPPLIES}/${name}/uevent`));
      if (supply) supplies.push(supply);
    } catch (error) {
      ctx.log.warn(`${SUPPLIES}/${name}/uevent: ${(error as Error).message}`);
    }
  }
  return supplies;
}

function batteryIcon(reading: BatteryReading): string {
  if (reading.state === "charging" || (reading.pluggedIn && reading.fraction >= 0.995)) return "battery.100.bolt";
  const steps: [number, string][] = [
    [0.875, "battery.100"],
    [0.625, "battery.75"],
    [0.375, "battery.50"],
    [0.125, "battery.25"],
  ];
  return steps.find(([floor]) => reading.fraction >= floor)?.[1] ?? "battery.0";
}

function batteryBlip(reading: BatteryReading): BlipInput {
  const left = reading.secondsLeft === undefined ? null : durationText(reading.secondsLeft);
  const label =
    reading.state === "charging"
      ? joinLine(["Charging", left ? `full in ${left}` : null])
      : reading.state === "discharging"
        ? left
          ? `${left} left`
          : "On battery"
        : reading.state === "full"
          ? "Full"
          : reading.pluggedIn
            ? "Plugged in, not charging"
            : "On battery";
  const low = reading.state === "discharging" && reading.fraction <= 0.2;
  return stat("battery", {
    title: "Battery",
    icon: batteryIcon(reading),
    state:
      reading.state === "charging"
        ? "running"
        : reading.state === "full"
          ? "success"
          : low
            ? reading.fraction <= 0.1
              ? "failure"
              : "warning"
            : "idle",
    value: percent(Math.round(reading.fraction * 100) / 100),
    label,
    staleAfter: FRESH_FOR,
  });
}

export default defineExtension({
  async update(ctx) {
    const [supplies, upower] = await Promise.all([
      readSupplies(ctx),
      runProgram(ctx, "upower", ["-d"], { timeoutMs: 5_000 }),
    ]);
    const reading = readBatteries(supplies);
    const devices =
      upower.ran && upower.code === 0
        ? peripherals(parseUpower(upower.stdout)).map((d) => ({
            name: d.model ?? d.kind,
            kind: d.kind,
            fraction: d.fraction,
          }))
        : peripheralSupplies(supplies);
    if (upower.ran && upower.code !== 0) ctx.log.warn(`upower -d exited ${upower.code}: ${upower.stderr.trim()}`);

    if (reading) await ctx.emit(batteryBlip(reading));
    if (devices.length > 0) {
      const items: ListItem[] = devices.slice(0, 5).map((d, i) => ({
        id: `device-${i + 1}`,
        title: d.name,
        subtitle: d.kind === "device" ? undefined : d.kind,
        icon: kindIcon(d.kind),
        ...(d.fraction === undefined ? {} : { value: percent(Math.round(d.fraction * 100) / 100) }),
        // Only a low battery gets a mark; the others are plain rows.
        ...(d.fraction !== undefined && d.fraction <= 0.2 ? { state: "warning" as const } : {}),
      }));
      await ctx.emit(
        list("devices", {
          title: "Devices",
          icon: "bolt.batteryblock",
          items,
          ...(devices.length > 5 ? { total: devices.length } : {}),
          staleAfter: FRESH_FOR,
        }),
      );
    } else {
      await ctx.remove("devices");
    }
    if (!reading) {
      if (devices.length > 0) return await ctx.remove("battery");
      const noUpower = !upower.ran && upower.kind === "missing";
      await ctx.emit(
        stat("battery", {
          title: "Battery",
          icon: "powerplug",
          state: "idle",
          value: "No battery",
          label: noUpower
            ? "This computer has none; install upower to see other devices' batteries"
            : "This computer has none, and no other device reports one",
        }),
      );
    }
  },
});
