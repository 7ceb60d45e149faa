// Which CPU each thread of this process runs on, for benchmarks whose result depends on it.
//
// On a small VM (this 2-vCPU one) a message between two threads costs ~3× the CPU when they sit on
// two CPUs (each hand-off wakes a halted vCPU) than when they share one, and the kernel keeps a
// pair where it first put it: a thread whose last CPU is idle is woken there again. Which of the
// two a design lands in is luck, and a benchmark interleaving two designs in one process gives them
// different luck: two identical worker designs interleaved measured 16 µs and 64 µs per host call.
// Pinning both designs' threads the same way compares them under the same placement.
// Linux only (taskset, /proc); elsewhere `placementControl()` answers undefined.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

/** CPU time used so far by each thread of this process, ns, by thread id. */
function threadCpuTimes() {
  const times = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      times.set(Number(tid), Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return times;
}

const setAffinity = (tid, cpus) => execFileSync("taskset", ["-pc", cpus, String(tid)], { stdio: "ignore" });

/**
 * Pins threads of this process, or undefined where it cannot (not Linux, no taskset, one CPU).
 *
 * @example
 * const placement = placementControl();
 * const tid = await placement.busiestThreadDuring(() => ext.invoke(call));
 * placement.pin([process.pid], 0); ...; placement.restore();
 */
export function placementControl() {
  if (process.platform !== "linux") return undefined;
  let allowed;
  try {
    allowed = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync("/proc/self/status", "utf8"))[1];
    execFileSync("taskset", ["-pc", String(process.pid)], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const cpus = allowed.split(",").flatMap((part) => {
    const [from, to = from] = part.split("-").map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
  if (cpus.length < 2) return undefined;
  const pinned = new Set();
  return {
    /** Two CPUs this process may use. */
    cpus: cpus.slice(0, 2),
    /** The thread (other than the main one) that used the most CPU while `fn` ran. */
    async busiestThreadDuring(fn) {
      const before = threadCpuTimes();
      await fn();
      let busiest;
      let most = -1;
      for (const [tid, ns] of threadCpuTimes()) {
        const used = ns - (before.get(tid) ?? 0);
        if (tid !== process.pid && used > most) [busiest, most] = [tid, used];
      }
      return busiest;
    },
    /** Keeps each of `tids` on `cpu` from now on. */
    pin(tids, cpu) {
      for (const tid of tids) {
        setAffinity(tid, String(cpu));
        pinned.add(tid);
      }
    },
    /** Every pinned thread may run anywhere again (threads gone meanwhile are skipped). */
    restore() {
      for (const tid of pinned) {
        try {
          setAffinity(tid, allowed);
        } catch {
          // ended
        }
      }
      pinned.clear();
    },
  };
}
