/**
 * System: disk, memory and load of this machine as one meter blip, read every 30 s with the
 * allow-listed commands `df`, `free`, `uptime` and `getconf` (`ctx.exec`, no network).
 * A command that is missing (macOS has no `free`) or fails just leaves its gauge out.
 */
import { defineExtension, meter, type Ctx, type MeterInput } from "@svc/api";
import { bytes, parseCpuCount, parseDf, parseFree, parseLoad, parseUp, type Usage } from "./parse.js";

async function run(ctx: Ctx, file: string, args: string[]): Promise<string | undefined> {
  try {
    const result = await ctx.exec(file, args, { timeoutMs: 5_000 });
    if (result.code === 0) return result.stdout;
    ctx.log.debug(`${file} exited ${result.code}: ${result.stderr.slice(0, 200)}`);
  } catch (error) {
    ctx.log.debug(`${file}: ${(error as Error).message}`);
  }
  return undefined;
}

function usageMeter(label: string, usage: Usage | undefined): MeterInput[] {
  if (!usage) return [];
  return [{ label, fraction: usage.used / usage.total, value: `${bytes(usage.used)} of ${bytes(usage.total)}` }];
}

export default defineExtension({
  async update(ctx) {
    const [df, free, uptime, cpus] = await Promise.all([
      run(ctx, "df", ["-kP", "/"]),
      run(ctx, "free", ["-b"]),
      run(ctx, "uptime", []),
      run(ctx, "getconf", ["_NPROCESSORS_ONLN"]),
    ]);
    const load = uptime === undefined ? undefined : parseLoad(uptime);
    const cores = cpus === undefined ? undefined : parseCpuCount(cpus);
    const meters: MeterInput[] = [
      ...usageMeter("Disk", df === undefined ? undefined : parseDf(df)),
      ...usageMeter("Memory", free === undefined ? undefined : parseFree(free)),
      ...(load === undefined
        ? []
        : [
            {
              label: "Load",
              fraction: load / (cores ?? 1),
              value: `${load.toFixed(2)}${cores ? ` on ${cores} cores` : ""}`,
            },
          ]),
    ];
    if (meters.length === 0) {
      await ctx.emit(
        meter("machine", {
          title: "System",
          state: "warning",
          meters: [{ label: "No readings", fraction: 0, value: "df, free and uptime all failed" }],
        }),
      );
      return;
    }
    const up = uptime === undefined ? undefined : parseUp(uptime);
    const worst = Math.max(...meters.map((m) => m.fraction));
    await ctx.emit(
      meter("machine", {
        title: "System",
        subtitle: up ? `up ${up}` : undefined,
        icon: "gauge",
        state: worst >= 0.9 ? "warning" : "idle",
        meters,
      }),
    );
  },
});
