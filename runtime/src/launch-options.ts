/**
 * How svc-runtime is started (svc-host's RuntimeProcess and the benches use these): the Node
 * flags (none today) and environment that keep the runtime's fixed memory small. Each was measured alone
 * (bench/README.md, "scale"); none changes what a guest may do. The bench reads it too, so it
 * imports nothing but the support folder's names.
 */
import { nodeCompileCacheDir } from "./support-folder.js";

/**
 * None, measured (bench/README.md "The levers, each measured alone"). Not `--max-semi-space-size=1`:
 * it saved 8–9 MB while the runtime loaded ~300 module files, but with the bundle (dist/bundle/)
 * it saves none 40–60 s after the launch and its scavenges make the launch 30–40 ms longer. Not
 * `--v8-pool-size=1` (−8…−15 MB): with one V8 platform thread the QuickJS module's tier-up and
 * the collections queue behind each other, and a launch of 117 KB bundles took 1.3–1.8× as long.
 * Not `--no-memory-reducer`: +7 MB, and no CPU saved with an update every 10 s. Not a larger
 * `--wasm-tiering-budget`: ×100 shortened most launches by 3–11 % but left QuickJS's busier functions
 * on Liftoff's code for good (guest code +15 %); ×10 was within the launch's noise.
 */
export const RUNTIME_NODE_FLAGS: readonly string[] = [];

/**
 * The environment for the runtime: on Linux, glibc hands allocations over 128 KB straight to
 * `mmap` (returned to the system on free) instead of keeping freed ones in its arenas (a value
 * already set by the person wins). Given the data root (`initialize`'s `dataDir`), Node's module
 * compile cache goes in it (`nodeCompileCacheDir`), for the protocol thread and the sandbox
 * threads alike: a later launch skips compiling zod, the SDK and the runtime. Always that folder,
 * even if the person set another for their own Node programs (`NODE_DISABLE_COMPILE_CACHE` still
 * turns it off). The programs extensions run never see it: exec passes PATH, HOME and LANG only.
 *
 * @example spawn(node, [...RUNTIME_NODE_FLAGS, main], { env: runtimeEnvironment(process.env, process.platform, dataDir) })
 */
export function runtimeEnvironment(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  dataRoot?: string,
): NodeJS.ProcessEnv {
  const cache = dataRoot === undefined ? {} : { NODE_COMPILE_CACHE: nodeCompileCacheDir(dataRoot) };
  return platform === "linux" ? { MALLOC_MMAP_THRESHOLD_: "131072", ...env, ...cache } : { ...env, ...cache };
}
