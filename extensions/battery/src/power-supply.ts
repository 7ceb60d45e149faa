/**
 * Linux's power-supply class (kernel Documentation/power/power_supply_class.rst): each entry of
 * /sys/class/power_supply has a `uevent` file of `POWER_SUPPLY_<ATTRIBUTE>=value` lines. Energies
 * are in µWh, power in µW, charges in µAh, currents in µA. The entries are symlinks into
 * /sys/devices, which is why the manifest lists that folder too: the file fence follows them.
 */

export interface Supply {
  name: string;
  /** "Battery", "Mains", "USB" … */
  type: string;
  /** "System" (this computer's) or "Device" (a peripheral's); absent on older kernels. */
  scope?: string;
  /** "Charging", "Discharging", "Not charging", "Full", "Unknown". */
  status?: string;
  present?: boolean;
  online?: boolean;
  /** 0–100. */
  capacity?: number;
  model?: string;
  /** Stored and full, with the rate, in one unit pair (µWh and µW, or µAh and µA). */
  now?: number;
  full?: number;
  rate?: number;
}

/** @example parseUevent("POWER_SUPPLY_NAME=BAT0\nPOWER_SUPPLY_TYPE=Battery\nPOWER_SUPPLY_CAPACITY=81\n") */
export function parseUevent(text: string): Supply | undefined {
  const values = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^POWER_SUPPLY_([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) values.set(match[1]!, match[2]!);
  }
  const name = values.get("NAME");
  const type = values.get("TYPE");
  if (!name || !type) return undefined;
  const num = (key: string) => {
    const raw = values.get(key);
    const n = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
    return Number.isFinite(n) ? n : undefined;
  };
  // Energy when the battery reports it, else charge: both give the same fractions and hours.
  const energy = num("ENERGY_NOW") !== undefined;
  const flag = (key: string) => (values.has(key) ? values.get(key) === "1" : undefined);
  const supply: Supply = { name, type };
  const set = <K extends keyof Supply>(key: K, value: Supply[K] | undefined) => {
    if (value !== undefined) supply[key] = value;
  };
  set("scope", values.get("SCOPE"));
  set("status", values.get("STATUS"));
  set("present", flag("PRESENT"));
  set("online", flag("ONLINE"));
  set("capacity", num("CAPACITY"));
  set("model", values.get("MODEL_NAME")?.trim() || undefined);
  set("now", num(energy ? "ENERGY_NOW" : "CHARGE_NOW"));
  set("full", num(energy ? "ENERGY_FULL" : "CHARGE_FULL"));
  set("rate", num(energy ? "POWER_NOW" : "CURRENT_NOW"));
  return supply;
}

export interface BatteryReading {
  /** 0–1. */
  fraction: number;
  state: "charging" | "discharging" | "full" | "not charging" | "unknown";
  /** Seconds until empty (discharging) or full (charging), when the rate is known. */
  secondsLeft?: number;
  pluggedIn: boolean;
}

/** This computer's batteries (not a peripheral's) read together, or undefined when it has none. */
export function readBatteries(supplies: Supply[]): BatteryReading | undefined {
  const batteries = supplies.filter((s) => s.type === "Battery" && s.scope !== "Device" && s.present !== false);
  if (batteries.length === 0) return undefined;
  const withEnergy = batteries.every((b) => b.now !== undefined && b.full !== undefined && b.full > 0);
  const now = batteries.reduce((sum, b) => sum + (b.now ?? 0), 0);
  const full = batteries.reduce((sum, b) => sum + (b.full ?? 0), 0);
  const fraction = withEnergy
    ? now / full
    : batteries.reduce((sum, b) => sum + (b.capacity ?? 0), 0) / 100 / batteries.length;
  const statuses = batteries.map((b) => (b.status ?? "Unknown").toLowerCase());
  const state: BatteryReading["state"] = statuses.includes("charging")
    ? "charging"
    : statuses.includes("discharging")
      ? "discharging"
      : statuses.every((s) => s === "full")
        ? "full"
        : statuses.includes("not charging")
          ? "not charging"
          : "unknown";
  const rate = batteries.reduce((sum, b) => sum + Math.abs(b.rate ?? 0), 0);
  let secondsLeft: number | undefined;
  if (withEnergy && rate > 0) {
    if (state === "discharging") secondsLeft = (now / rate) * 3600;
    if (state === "charging") secondsLeft = ((full - now) / rate) * 3600;
  }
  const mains = supplies.filter((s) => s.type !== "Battery" && s.online !== undefined);
  return {
    fraction: Math.min(1, Math.max(0, fraction)),
    state,
    ...(secondsLeft === undefined ? {} : { secondsLeft: Math.round(secondsLeft) }),
    pluggedIn: mains.some((s) => s.online) || state === "charging" || state === "full",
  };
}

/** Peripheral batteries the kernel reports itself (scope "Device"), for machines without upower. */
export function peripheralSupplies(supplies: Supply[]): { name: string; kind: string; fraction?: number }[] {
  return supplies
    .filter((s) => s.type === "Battery" && s.scope === "Device")
    .map((s) => ({
      name: s.model ?? s.name,
      kind: "device",
      ...(s.capacity === undefined ? {} : { fraction: s.capacity / 100 }),
    }));
}
