import { describe, expect, it } from "vitest";
import { bytes, parseCpuCount, parseDf, parseFree, parseLoad, parseUp } from "./parse.js";

describe("system extension parsers", () => {
  it("reads df -kP", () => {
    const out =
      "Filesystem     1024-blocks      Used Available Capacity Mounted on\n/dev/sda1        1000        710       290      71% /\n";
    expect(parseDf(out)).toEqual({ used: 710 * 1024, total: 1000 * 1024 });
    expect(parseDf("Filesystem\n")).toBeUndefined();
  });

  it("reads free -b as total minus available", () => {
    const out =
      "               total        used        free      shared  buff/cache   available\nMem:      8000000000  3000000000  1000000000     5000000  4000000000  4500000000\nSwap:              0           0           0\n";
    expect(parseFree(out)).toEqual({ used: 3_500_000_000, total: 8_000_000_000 });
    expect(parseFree("nothing")).toBeUndefined();
  });

  it("reads the one-minute load on Linux and macOS", () => {
    expect(parseLoad(" 10:01:02 up 3 days,  2:03,  1 user,  load average: 0.52, 0.58, 0.59")).toBe(0.52);
    expect(parseLoad("10:01  up 2 days, 3:04, 2 users, load averages: 1.20 1.31 1.40")).toBe(1.2);
    expect(parseLoad("no load here")).toBeUndefined();
  });

  it("reads how long the machine is up", () => {
    expect(parseUp(" 10:01:02 up 3 days,  2:03,  1 user,  load average: 0.52, 0.58, 0.59")).toBe("3 days, 2:03");
    expect(parseUp(" 10:01:02 up 5 min,  load average: 0.52, 0.58, 0.59")).toBe("5 min");
  });

  it("reads processor counts and writes byte sizes", () => {
    expect(parseCpuCount("8\n")).toBe(8);
    expect(parseCpuCount("0")).toBeUndefined();
    expect(bytes(512)).toBe("512 B");
    expect(bytes(1_610_612_736)).toBe("1.5 GB");
    expect(bytes(20 * 1024 ** 3)).toBe("20 GB");
  });
});
