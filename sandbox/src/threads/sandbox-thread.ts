/**
 * Entry of a sandbox thread (runs from dist/sandbox-thread.js in a worker_threads Worker): hosts
 * several sandboxes, relays their host calls and events to the owner, and announces every
 * guest slice on the shared SliceBoard for the owner's watchdog.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { createCapabilities, replayTransport } from "../capabilities/index.js";
import { testClock } from "../test-switches.js";
import { SandboxError } from "../errors.js";
import { errorRecord } from "../engine/guest-calls.js";
import { DEFAULT_LIMITS, resolveLimits } from "../limits.js";
import { prepareInstance } from "../engine/prepared-instance.js";
import { Sandbox } from "../sandbox.js";
import { SPARE_IDLE_MS, SpareKeeper } from "./spare.js";
import { IdleQueue } from "./idle-queue.js";
import { readCompiledCode, writeCompiledFile, type CompiledCodeSource } from "../engine/compiled-code/code-cache.js";
import { compileApart } from "../engine/compile-apart.js";
import { SliceBoard } from "../engine/slice-board.js";
import { currentThreadId, ownCpuClock } from "../engine/thread-cpu.js";
import type {
  FromSandboxThread,
  InvokeReply,
  LoadReply,
  SandboxThreadData,
  ToSandboxThread,
} from "./thread-messages.js";
import type { SandboxOptions } from "../types.js";
import { adoptCompiledModule } from "../engine/wasm.js";
import { warmUp } from "./warm-up.js";
import { Outbox, unpack, type Crossing } from "./outbox.js";

const port = parentPort!;
const data = workerData as SandboxThreadData;
adoptCompiledModule(data.module);
const board = new SliceBoard(data.board);
board.threadId = currentThreadId() ?? 0; // the watchdog reads this thread's CPU clock
// SVC_TEST_REPLAY (tests only; svc-runtime announces it): listed extensions' fetches answered from recordings.
const transport = replayTransport(process.env);
const capabilities = createCapabilities({ execTag: data.execTag, ...(transport ? { transport } : {}) });
// SVC_TEST_NOW (tests only; svc-runtime announces it and refuses a bad value): the guests' time starts there.
let clock: ReturnType<typeof testClock>;
try {
  clock = testClock(process.env);
} catch {
  clock = undefined; // svc-runtime has already refused to start
}
const sandboxes = new Map<number, Sandbox>();
const aborts = new Map<number, (reason: string) => void>();
const forwards = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextForwardId = 1;
/** Set when the thread starts, and again by the pool's `settings` (the runtime's `initialize`). */
let { timeZone, locale } = data;
const spare =
  data.spare === false
    ? undefined
    : new SpareKeeper(
        () => prepareInstance({ memoryBytes: DEFAULT_LIMITS.memoryBytes, timeZone }),
        DEFAULT_LIMITS.memoryBytes,
      );
/** Compiling bundles for the pool's code cache, and the warm-up: only while the thread is quiet. */
const idleWork = new IdleQueue(SPARE_IDLE_MS);
/** A sandbox was created on this thread: it needs no warm-up any more. */
let createdAny = false;

/**
 * Sends to the owner. Quiet time before making the spare counts from the end of work too, not
 * only from the last request: a long `load` must not be followed at once by making the spare
 * while the next request waits. Diagnostics (`stats`) are not work and do not count.
 */
const outbox = new Outbox<FromSandboxThread>((crossing) => port.postMessage(crossing));
board.onSwitch = () => outbox.flush();
function send(message: FromSandboxThread, isWork = true): void {
  outbox.send(message);
  if (isWork) {
    spare?.active();
    idleWork.active();
  }
}

function reply(rid: number, work: () => Promise<unknown>, isWork = true): void {
  // Never throws out of the message handler: an exception there would end the thread.
  Promise.resolve()
    .then(work)
    .then(
      (value) => send({ type: "result", rid, ok: true, value }, isWork),
      (error: unknown) => {
        const record =
          error instanceof SandboxError
            ? error.toRecord()
            : { code: "guest" as const, message: errorRecord(error).message };
        send({ type: "result", rid, ok: false, error: record }, isWork);
      },
    );
}

async function create(sid: number, options: SandboxOptions, cached: CompiledCodeSource | undefined): Promise<null> {
  createdAny = true;
  const compiledCode = readCompiledCode(cached);
  let prepared;
  try {
    // A spare was made on the real clock: a test clock needs a fresh instance.
    prepared = clock ? undefined : spare?.take(resolveLimits(options.limits).memoryBytes, timeZone);
  } catch {
    // bad limits: Sandbox.create says so
  }
  const sandbox = await Sandbox.create(
    options,
    {
      forwarded: {
        forward(op, args) {
          const fid = nextForwardId++;
          return new Promise((resolve, reject) => {
            forwards.set(fid, { resolve, reject });
            send({ type: "forward", sid, fid, op, args });
          });
        },
      },
      onEvent: (event) => send({ type: "event", sid, event }),
      onCrash: (crash) => {
        sandboxes.delete(sid);
        send({ type: "crash", sid, reason: crash.reason });
      },
    },
    {
      placement: { board, slot: sid },
      capabilities,
      timeZone,
      locale,
      prepared,
      compiledCode,
      ...(clock ? { clock } : {}),
    },
  );
  sandboxes.set(sid, sandbox);
  return null;
}

/** Compiles a bundle apart; writes it to the cache file, or answers the bytes (a memory cache). */
async function compileForCache(message: Extract<ToSandboxThread, { type: "compile" }>): Promise<Uint8Array | null> {
  const bytes = await compileApart(message.code, message.filename);
  if (!bytes || !message.file) return bytes ?? null;
  await writeCompiledFile(message.file, message.id, bytes);
  return null;
}

function sandboxOf(sid: number): Sandbox {
  const sandbox = sandboxes.get(sid);
  if (!sandbox) throw new SandboxError("crashed", "the sandbox is gone; create it again");
  return sandbox;
}

function handle(message: ToSandboxThread): void {
  if (message.type !== "stats") {
    spare?.active();
    idleWork.active();
  }
  switch (message.type) {
    case "create":
      return reply(message.rid, () => create(message.sid, message.options, message.compiledCode));
    case "call":
      return reply(message.rid, async () => {
        const sandbox = sandboxOf(message.sid);
        if (message.method === "dispose") {
          sandboxes.delete(message.sid);
          return sandbox.dispose();
        }
        if (message.method === "diagnostics") return sandbox.diagnostics();
        const loaded = await sandbox.load();
        return { loaded, parsedSource: sandbox.parsedSource } satisfies LoadReply;
      });
    case "invoke":
      return reply(message.rid, () => {
        const sandbox = sandboxOf(message.sid);
        const { result, abort } = sandbox.start(message.invocation);
        aborts.set(message.rid, abort);
        return result
          .then((value): InvokeReply => ({ value, usage: sandbox.lastCallUsage }))
          .finally(() => aborts.delete(message.rid));
      });
    case "settings":
      return reply(message.rid, async () => {
        ({ timeZone, locale } = message);
        await spare?.renew(timeZone);
        return null;
      });
    case "compile":
      return reply(message.rid, () => idleWork.run(() => compileForCache(message)));
    case "abort":
      return aborts.get(message.rid)?.(message.reason);
    case "forwarded": {
      const waiter = forwards.get(message.fid);
      forwards.delete(message.fid);
      if (!waiter) return;
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
      return;
    }
    case "close":
      return reply(message.rid, async () => {
        const all = [...sandboxes.values()];
        sandboxes.clear();
        await Promise.all(all.map((sandbox) => sandbox.dispose()));
        // The clock's descriptor is the process's, so the thread closes it before it is ended.
        // Only the owner could close it after, and by then the number may be another's: a
        // thread the watchdog ends (a rare offender) leaves its one descriptor open instead.
        ownCpuClock().close();
        return null;
      });
    case "stats":
      return reply(
        message.rid,
        async () => {
          if (message.collectGarbage) collectGarbage();
          const memory = process.memoryUsage();
          return {
            sandboxes: sandboxes.size,
            heapUsed: memory.heapUsed,
            external: memory.external,
            activeResources: process.getActiveResourcesInfo().length,
            spare: spare?.hasSpare ?? false,
            compiling: idleWork.size,
            cpuMs: ownCpuClock().now(),
          };
        },
        false,
      );
  }
}

/** A full garbage collection, for leak checks (stats with `collectGarbage`). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

// The warm-up is for a thread whose first sandbox comes alone (an extension started later): it
// waits for a quiet moment, and is skipped once a real sandbox was created here. In a burst (the
// app's launch) the real sandboxes warm the thread, and a warm-up first only delayed them
// (30 small extensions: the 30th first blip ~7 % later, ~5 MB more RSS).
void idleWork.run(async () => {
  if (!createdAny) await warmUp(timeZone);
});
await spare?.fill(); // so the first create on this thread finds its spare
port.on("message", (crossing: Crossing<ToSandboxThread>) => unpack(crossing, handle));
send({ type: "ready" });
