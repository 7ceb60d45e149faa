/** How svc-runtime is started: its Node flags and environment (launch-options.ts). */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "./launch-options.js";

describe("runtime launch options", () => {
  it("are no Node flags: each one measured cost more than it saved", () => {
    expect(RUNTIME_NODE_FLAGS).toEqual([]);
  });

  it("set glibc's mmap threshold on Linux only, and a value the person set wins", () => {
    expect(runtimeEnvironment({ PATH: "/bin" }, "linux")).toEqual({ PATH: "/bin", MALLOC_MMAP_THRESHOLD_: "131072" });
    expect(runtimeEnvironment({ MALLOC_MMAP_THRESHOLD_: "4096" }, "linux")).toEqual({ MALLOC_MMAP_THRESHOLD_: "4096" });
    expect(runtimeEnvironment({ PATH: "/bin" }, "darwin")).toEqual({ PATH: "/bin" });
    expect(runtimeEnvironment({ PATH: "/bin" }, "win32")).toEqual({ PATH: "/bin" });
  });

  it("put Node's compile cache in the data folder on every platform, over a folder the person named", () => {
    const data = join("/home", "ann", "Svc", "Data");
    const cache = join(data, ".node-compile-cache");
    expect(runtimeEnvironment({ NODE_COMPILE_CACHE: "/tmp/mine" }, "darwin", data)).toEqual({
      NODE_COMPILE_CACHE: cache,
    });
    expect(runtimeEnvironment({}, "linux", data)).toEqual({
      MALLOC_MMAP_THRESHOLD_: "131072",
      NODE_COMPILE_CACHE: cache,
    });
    expect(runtimeEnvironment({ NODE_DISABLE_COMPILE_CACHE: "1" }, "win32", data)).toEqual({
      NODE_DISABLE_COMPILE_CACHE: "1",
      NODE_COMPILE_CACHE: cache,
    });
  });
});
