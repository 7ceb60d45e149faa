// A process and everything it started, read from Linux's /proc: resident memory, CPU time and
// voluntary context switches (each is one sleep, so one later wake-up) of every thread.
import { readdirSync, readFileSync } from "node:fs";

const read = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // the process or thread ended between the listing and the read
  }
};

/** `pid` and its descendants. */
export function treeOf(pid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree = [];
  const visit = (p) => {
    tree.push(p);
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

function threadsOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).map((tid) => `/proc/${pid}/task/${tid}`);
  } catch {
    return [];
  }
}

/**
 * One reading of the tree: RSS (bytes, every process's VmRSS), CPU (ns on a CPU, every thread's
 * schedstat) and voluntary switches (every thread), plus each thread's CPU by name.
 *
 * @example const before = sampleTree(rt.pid); …; const after = sampleTree(rt.pid);
 */
export function sampleTree(pid) {
  let rss = 0;
  let cpuNs = 0;
  let voluntary = 0;
  const threads = {};
  for (const p of treeOf(pid)) {
    rss += Number(/VmRSS:\s+(\d+)/.exec(read(`/proc/${p}/status`) ?? "")?.[1] ?? 0) * 1024;
    for (const task of threadsOf(p)) {
      const ns = Number((read(`${task}/schedstat`) ?? "0").split(" ")[0]);
      const status = read(`${task}/status`) ?? "";
      cpuNs += ns;
      voluntary += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const name = `${/Name:\s+(.*)/.exec(status)?.[1] ?? "?"} ${task.split("/").pop()}`;
      const switches = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
      threads[name] = { ns: (threads[name]?.ns ?? 0) + ns, wakeups: (threads[name]?.wakeups ?? 0) + switches };
    }
  }
  return { at: performance.now(), rss, cpuNs, voluntary, threads };
}

/** CPU ms, wake-ups and their rate between two readings; both by thread name too. */
export function between(before, after) {
  const seconds = (after.at - before.at) / 1000;
  const byThread = Object.fromEntries(
    Object.entries(after.threads).map(([name, { ns, wakeups }]) => [
      name,
      { cpuMs: (ns - (before.threads[name]?.ns ?? 0)) / 1e6, wakeups: wakeups - (before.threads[name]?.wakeups ?? 0) },
    ]),
  );
  return {
    seconds,
    cpuMs: (after.cpuNs - before.cpuNs) / 1e6,
    wakeups: after.voluntary - before.voluntary,
    wakeupsPerSecond: (after.voluntary - before.voluntary) / seconds,
    byThread,
  };
}
