/**
 * svc-host starts svc-runtime with Node's module compile cache inside the support folder's Data/
 * (runtime/src/launch-options.ts); whether Node writes there is test/runtime/compile-cache.test.ts.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startHost, useHostWorld } from "./harness.js";

const scene = useHostWorld();

describe("the runtime's compile cache", () => {
  it("is <support>/Data/.node-compile-cache, over a folder named in the host's own environment", async () => {
    scene.host = await startHost(scene.world, { NODE_COMPILE_CACHE: join(scene.world.root, "elsewhere") });
    const started = await scene.host.waitFor((e) => e.type === "runtime" && e.state === "started");
    // The runtime's environment as the kernel holds it (Linux, where the suite runs).
    const environment = readFileSync(`/proc/${started.pid}/environ`, "utf8").split("\0");
    expect(environment.filter((entry) => entry.startsWith("NODE_COMPILE_CACHE="))).toEqual([
      `NODE_COMPILE_CACHE=${join(scene.world.home, "Data", ".node-compile-cache")}`,
    ]);
  });
});
