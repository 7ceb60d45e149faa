/** How svc-runtime is started: its Node flags and environment (launch-options.ts). */
import { describe, expect, it } from "vitest";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "./launch-options.js";

describe("runtime launch options", () => {
  it("are the measured Node flag", () => {
    expect(RUNTIME_NODE_FLAGS).toEqual(["--max-semi-space-size=1"]);
  });

  it("set glibc's mmap threshold on Linux only, and a value the person set wins", () => {
    expect(runtimeEnvironment({ PATH: "/bin" }, "linux")).toEqual({ PATH: "/bin", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(runtimeEnvironment({ MALLOC_MMAP_THRESHOLD_: "4096" }, "linux")).toEqual({ MALLOC_MMAP_THRESHOLD_: "4096" });
    expect(runtimeEnvironment({ PATH: "/bin" }, "darwin")).toEqual({ PATH: "/bin" });
    expect(runtimeEnvironment({ PATH: "/bin" }, "win32")).toEqual({ PATH: "/bin" });
  });
});
