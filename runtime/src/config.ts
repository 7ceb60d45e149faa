/**
 * The runtime's knobs. Defaults are SPEC.md's; the environment overrides them, which is how the
 * tests make the 30 s limits short.
 *
 * | env | default | meaning |
 * |-----|---------|---------|
 * | `SVC_RUNTIME_MAX_LINE_BYTES` | 8388608 | longest accepted input line (newline excluded) |
 * | `SVC_RUNTIME_TOOL_ABORT_MS` | 30000 | a tool run's `ctx.signal` is aborted after this |
 * | `SVC_RUNTIME_TOOL_GIVE_UP_MS` | 32000 | the runtime answers Timeout for a tool run after this |
 * | `SVC_RUNTIME_CALL_ABORT_MS` | 30000 | the signal given to `update`/`onEvent`/`onAction` is aborted after this |
 * | `SVC_RUNTIME_CALL_GIVE_UP_MS` | 32000 | the runtime answers Timeout for those after this |
 * | `SVC_RUNTIME_HOST_CALL_TIMEOUT_MS` | 60000 | a `host.*` request the host never answers fails after this |
 * | `SVC_RUNTIME_MEMORY_MB` | 64 | each sandbox's heap cap |
 * | `SVC_RUNTIME_SLICE_MS` | 1000 | longest synchronous slice of guest code |
 * | `SVC_RUNTIME_SANDBOXES_PER_THREAD` | 16 | sandboxes on the first sandbox thread before a second starts |
 * | `SVC_RUNTIME_TEST_HOOKS` | unset | `1` serves `test.advanceClock` |
 */
export interface RuntimeConfig {
  maxLineBytes: number;
  toolAbortMs: number;
  toolGiveUpMs: number;
  callAbortMs: number;
  callGiveUpMs: number;
  hostCallTimeoutMs: number;
  memoryMb: number;
  sliceMs: number;
  /** A sandbox thread costs ~15–35 MB: the second starts only once the first holds this many (bench/README.md, "scale"). */
  sandboxesPerThread: number;
  testHooks: boolean;
}

export const DEFAULT_CONFIG: RuntimeConfig = {
  maxLineBytes: 8 * 1024 * 1024,
  toolAbortMs: 30_000,
  toolGiveUpMs: 32_000,
  callAbortMs: 30_000,
  callGiveUpMs: 32_000,
  hostCallTimeoutMs: 60_000,
  memoryMb: 64,
  sliceMs: 1000,
  sandboxesPerThread: 16,
  testHooks: false,
};

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, warn: (m: string) => void): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    warn(`ignoring ${name}=${raw}: it should be a positive integer; using ${fallback}`);
    return fallback;
  }
  return value;
}

/**
 * Reads the knobs from the environment.
 *
 * @example
 * const config = configFromEnv({ SVC_RUNTIME_TOOL_ABORT_MS: "200" }); // config.toolAbortMs === 200
 */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  warn: (m: string) => void = () => {},
): RuntimeConfig {
  const read = (name: string, fallback: number) => positiveInt(env, name, fallback, warn);
  return {
    maxLineBytes: read("SVC_RUNTIME_MAX_LINE_BYTES", DEFAULT_CONFIG.maxLineBytes),
    toolAbortMs: read("SVC_RUNTIME_TOOL_ABORT_MS", DEFAULT_CONFIG.toolAbortMs),
    toolGiveUpMs: read("SVC_RUNTIME_TOOL_GIVE_UP_MS", DEFAULT_CONFIG.toolGiveUpMs),
    callAbortMs: read("SVC_RUNTIME_CALL_ABORT_MS", DEFAULT_CONFIG.callAbortMs),
    callGiveUpMs: read("SVC_RUNTIME_CALL_GIVE_UP_MS", DEFAULT_CONFIG.callGiveUpMs),
    hostCallTimeoutMs: read("SVC_RUNTIME_HOST_CALL_TIMEOUT_MS", DEFAULT_CONFIG.hostCallTimeoutMs),
    memoryMb: read("SVC_RUNTIME_MEMORY_MB", DEFAULT_CONFIG.memoryMb),
    sliceMs: read("SVC_RUNTIME_SLICE_MS", DEFAULT_CONFIG.sliceMs),
    sandboxesPerThread: read("SVC_RUNTIME_SANDBOXES_PER_THREAD", DEFAULT_CONFIG.sandboxesPerThread),
    testHooks: env.SVC_RUNTIME_TEST_HOOKS === "1",
  };
}
