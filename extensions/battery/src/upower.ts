/**
 * `upower -d` (upower's up-tool and libupower-glib's up_device_to_text): one block per device,
 * "Device: <object path>", then two-space lines ("  model:  MX Master 3", "  power supply:  no"),
 * a line naming the kind ("  mouse"), and four-space lines ("    percentage:  70%",
 * "    state:  discharging"). Ends with a "Daemon:" block.
 */

export interface UpowerDevice {
  path: string;
  /** "battery", "line-power", "mouse", "keyboard", "headset", "phone", "gaming-input" … */
  kind: string;
  model?: string;
  /** Whether it powers this computer (its own battery, a UPS) rather than being a peripheral. */
  powerSupply: boolean;
  /** 0–1. */
  fraction?: number;
  state?: string;
}

export function parseUpower(stdout: string): UpowerDevice[] {
  const devices: UpowerDevice[] = [];
  let current: UpowerDevice | undefined;
  for (const line of stdout.split("\n")) {
    const device = /^Device:\s+(\S+)/.exec(line);
    if (device) {
      current = { path: device[1]!, kind: "unknown", powerSupply: false };
      devices.push(current);
      continue;
    }
    if (/^\S/.test(line)) {
      current = undefined; // "Daemon:" and anything else at the margin ends a device.
      continue;
    }
    if (!current) continue;
    const field = /^ {2,4}([a-z][a-z -]*):\s+(.*)$/.exec(line);
    if (field) {
      const [, key, value] = field;
      if (key === "model") current.model = value!.trim();
      if (key === "power supply") current.powerSupply = value!.trim() === "yes";
      if (key === "state") current.state = value!.trim();
      if (key === "percentage") {
        const n = Number.parseFloat(value!);
        if (Number.isFinite(n)) current.fraction = Math.min(1, Math.max(0, n / 100));
      }
      continue;
    }
    const kind = /^ {2}([a-z][a-z-]*)\s*$/.exec(line);
    if (kind) current.kind = kind[1]!;
  }
  return devices;
}

/** The peripherals with a battery level: not this computer's own power, not the summary device. */
export function peripherals(devices: UpowerDevice[]): UpowerDevice[] {
  return devices.filter(
    (d) => !d.powerSupply && d.fraction !== undefined && !d.path.endsWith("/DisplayDevice") && d.kind !== "line-power",
  );
}

/** The symbol for a kind of device. */
export function kindIcon(kind: string): string {
  const icons: Record<string, string> = {
    mouse: "computermouse",
    keyboard: "keyboard",
    headset: "headphones",
    headphones: "headphones",
    speakers: "hifispeaker",
    phone: "iphone",
    tablet: "ipad",
    "gaming-input": "gamecontroller",
    pen: "pencil",
    touchpad: "hand.tap",
    watch: "applewatch",
  };
  return icons[kind] ?? "bolt.batteryblock";
}
