/**
 * The conformance runner: files of test262 (fixtures/test262/) and web-platform-tests (fixtures/wpt/), taken from
 * the public repositories with their licences (fixtures/sources.txt names each file's commit), each
 * bundled by svckit's build and run in the real sandbox and on Node 20 side by side. README.md
 * says which files, why, and what each side passes.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SandboxPool } from "@svc/sandbox";
import { bundle } from "../../cli/src/bundle/bundle.js";

const HERE = fileURLToPath(new URL("./", import.meta.url));
const TEST262 = join(HERE, "fixtures/test262");
const WPT = join(HERE, "fixtures/wpt");

/** Guests in another zone than the process (the test kit's default is UTC), as the issue found them. */
export const GUEST_ZONE = "America/New_York";
const LOCALE = "en-US";
/** One file's answer on either side; a file that never answers fails. */
const FILE_TIMEOUT_MS = 30_000;

export interface Suite {
  name: string;
  kind: "test262" | "wpt";
  /** Folders (under fixtures/test262/ or fixtures/wpt/) whose files it runs. */
  dirs: string[];
}

export const SUITES: Suite[] = [
  { name: "test262 built-ins/Date", kind: "test262", dirs: ["test/built-ins/Date"] },
  { name: "test262 built-ins/RegExp (v flag)", kind: "test262", dirs: ["test/built-ins/RegExp/unicodeSets"] },
  { name: "test262 built-ins/Array/fromAsync", kind: "test262", dirs: ["test/built-ins/Array/fromAsync"] },
  { name: "test262 built-ins/Iterator", kind: "test262", dirs: ["test/built-ins/Iterator"] },
  { name: "test262 intl402", kind: "test262", dirs: ["test/intl402"] },
  { name: "WPT URL, URLSearchParams", kind: "wpt", dirs: ["url"] },
  { name: "WPT Headers", kind: "wpt", dirs: ["fetch/api/headers"] },
  { name: "WPT TextDecoder", kind: "wpt", dirs: ["encoding"] },
  { name: "WPT AbortSignal", kind: "wpt", dirs: ["dom/abort"] },
  { name: "WPT timers", kind: "wpt", dirs: ["html/webappapis/timers"] },
];

/** One test's outcome: a test262 file, or one subtest of a WPT file (`file › name`). */
export interface Outcome {
  test: string;
  ok: boolean;
  message: string;
}

export interface SuiteResult {
  suite: Suite;
  /** Every test either side ran, in file order. */
  tests: string[];
  sandbox: Map<string, Outcome>;
  node: Map<string, Outcome>;
}

/** The test files under `dir`: every .js of test262's test/, WPT's .any.js (not its resources). */
function filesUnder(root: string, dir: string, ending: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...filesUnder(root, path, ending));
    else if (name.endsWith(ending)) out.push(path);
  }
  return out;
}

/** A test262 file's front matter: the harness files it includes and its flags. */
function frontMatter(source: string): { includes: string[]; flags: string[] } {
  const meta = /\/\*---([\s\S]*?)---\*\//.exec(source)?.[1] ?? "";
  const list = (key: string) =>
    (new RegExp(`^${key}:\\s*\\[([^\\]]*)\\]`, "m").exec(meta)?.[1] ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  return { includes: list("includes"), flags: list("flags") };
}

/**
 * The extension for one test262 file: the harness (sta.js, assert.js, its includes) and the
 * test as one script, as test262's own runners join them; `update()` answers `{ok, message}`.
 * An async test reports through `$DONE`, which exists only for those (asyncHelpers.js checks).
 */
function test262Extension(file: string): Record<string, string> {
  const source = readFileSync(join(TEST262, file), "utf8");
  const { includes, flags } = frontMatter(source);
  const harness = ["sta.js", "assert.js", ...includes].map((name) =>
    readFileSync(join(TEST262, "harness", name), "utf8"),
  );
  const strict = flags.includes("onlyStrict") ? '"use strict";\n' : "";
  const async = flags.includes("async");
  return {
    "src/case.js": `${strict}${harness.join("\n")}\n${source}`,
    "src/index.ts": `declare const require: (id: string) => unknown;
const describe = (e: any) => (e && typeof e === "object" ? String(e.name ?? "Error") + ": " + String(e.message) : String(e));
export default {
  update: () =>
    new Promise((resolve) => {
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        resolve(error === undefined ? { ok: true, message: "" } : { ok: false, message: describe(error) });
      };
      ${async ? "(globalThis as any).$DONE = finish;" : ""}
      try {
        require("./case.js");
        ${async ? "" : "finish();"}
      } catch (error) {
        finish(error ?? "undefined was thrown");
      }
    }),
};
`,
  };
}

/**
 * The extension for one WPT file: harness/wpt-harness.js, the scripts its `// META: script=`
 * lines name (from the file's folder, or from fixtures/wpt/ when they start with /), then the file;
 * `update()` answers its subtests.
 */
function wptExtension(file: string): Record<string, string> {
  const source = readFileSync(join(WPT, file), "utf8");
  const scripts = [...source.matchAll(/^\/\/ META: script=(\S+)$/gm)].map(([, path]) =>
    path.startsWith("/") ? join(WPT, path) : join(WPT, dirname(file), path),
  );
  const files: Record<string, string> = {
    "src/harness.js": readFileSync(join(HERE, "fixtures/wpt-harness.js"), "utf8"),
    "src/case.js": source,
  };
  scripts.forEach((path, i) => (files[`src/meta${i}.js`] = readFileSync(path, "utf8")));
  files["src/index.ts"] = `declare const require: (id: string) => any;
const harness = require("./harness.js");
export default {
  update: () =>
    new Promise((resolve) => {
      let loadError: unknown;
      try {
        ${scripts.map((_, i) => `require("./meta${i}.js");`).join(" ")}
        require("./case.js");
      } catch (error) {
        loadError = error ?? "undefined was thrown";
      }
      harness.results((tests: unknown) => resolve({ tests }), loadError);
    }),
};
`;
  return files;
}

async function build(work: string, id: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, id);
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const outcome = await bundle(dir);
  if (!outcome.ok) throw new Error(`svckit refused ${id}:\n${outcome.errors.join("\n")}`);
  return outcome.code;
}

type Answer = { ok: true; value: unknown } | { ok: false; error: string };

async function inSandbox(pool: SandboxPool, work: string, id: string, code: string): Promise<Answer> {
  const sandbox = await pool.create(
    {
      id: `conformance.${id.replace(/[^a-z0-9]/gi, "").slice(-40)}`,
      code,
      permissions: { network: [], files: [], exec: [] },
      dataDir: join(work, id, "data"),
      limits: { sliceMs: 20_000 },
    },
    { forwarded: { forward: async () => null } },
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    await sandbox.load();
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${FILE_TIMEOUT_MS} ms`)), FILE_TIMEOUT_MS);
    });
    return {
      ok: true,
      value: await Promise.race([sandbox.invoke({ kind: "update", ctx: { preferences: {} } }), late]),
    };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
    await sandbox.dispose();
  }
}

function onNode(work: string, codes: string[]): Promise<Answer[]> {
  const input = join(work, "node-input.json");
  writeFileSync(input, JSON.stringify({ codes, timeoutMs: FILE_TIMEOUT_MS }));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(HERE, "node-side.mjs"), input],
      { env: { ...process.env, TZ: GUEST_ZONE, LANG: "en_US.UTF-8", LC_ALL: "" }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Answer[])),
    );
  });
}

/** A side's answer for one file as outcomes, one per test. */
function outcomes(kind: Suite["kind"], file: string, answer: Answer): Outcome[] {
  if (!answer.ok) return [{ test: file, ok: false, message: answer.error }];
  if (kind === "test262") {
    const { ok, message } = answer.value as { ok: boolean; message: string };
    return [{ test: file, ok, message }];
  }
  const { tests } = answer.value as { tests: { name: string; ok: boolean; message: string }[] };
  return tests.map((t) => ({ test: `${file} › ${t.name}`, ok: t.ok, message: t.message }));
}

/**
 * Runs every suite on both sides.
 *
 * @example const results = await runConformance(); console.log(summaryLines(results).join("\n"));
 */
export async function runConformance(): Promise<SuiteResult[]> {
  const work = mkdtempSync(join(tmpdir(), "svc-conformance-"));
  const pool = new SandboxPool({ threads: 2, timeZone: GUEST_ZONE, locale: LOCALE });
  try {
    const cases = SUITES.flatMap((suite) =>
      suite.dirs.flatMap((dir) =>
        filesUnder(suite.kind === "test262" ? TEST262 : WPT, dir, suite.kind === "test262" ? ".js" : ".any.js").map(
          (file) => ({ suite, file }),
        ),
      ),
    );
    const codes = await Promise.all(
      cases.map(({ suite, file }, i) =>
        build(work, `case${i}`, suite.kind === "test262" ? test262Extension(file) : wptExtension(file)),
      ),
    );
    const nodeAnswers = onNode(work, codes);
    const sandboxAnswers: Answer[] = [];
    for (let i = 0; i < cases.length; i += 2) {
      sandboxAnswers.push(
        ...(await Promise.all(codes.slice(i, i + 2).map((code, j) => inSandbox(pool, work, `case${i + j}`, code)))),
      );
    }
    const node = await nodeAnswers;
    return SUITES.map((suite) => {
      const result: SuiteResult = { suite, tests: [], sandbox: new Map(), node: new Map() };
      cases.forEach((c, i) => {
        if (c.suite !== suite) return;
        for (const [side, answer] of [
          [result.sandbox, sandboxAnswers[i]],
          [result.node, node[i]],
        ] as const) {
          for (const outcome of outcomes(suite.kind, c.file, answer)) {
            side.set(outcome.test, outcome);
            if (!result.tests.includes(outcome.test)) result.tests.push(outcome.test);
          }
        }
      });
      return result;
    });
  } finally {
    await pool.dispose();
  }
}

/** How many of the suite's tests a side passed (a test a side never reported is a failure). */
export function passed(result: SuiteResult, side: "sandbox" | "node"): number {
  return result.tests.filter((test) => result[side].get(test)?.ok).length;
}

/** One line per suite: `test262 built-ins/Date   sandbox 6/6   Node 20 5/6`. */
export function summaryLines(results: SuiteResult[]): string[] {
  const width = Math.max(...results.map((r) => r.suite.name.length));
  const node = `Node ${process.versions.node.split(".")[0]}`;
  return results.map((r) => {
    const total = r.tests.length;
    return `${r.suite.name.padEnd(width)}   sandbox ${passed(r, "sandbox")}/${total}   ${node} ${passed(r, "node")}/${total}`;
  });
}

/** Every test either side failed, with both sides' messages (CONFORMANCE_VERBOSE=1). */
export function failureLines(results: SuiteResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    for (const test of r.tests) {
      const sandbox = r.sandbox.get(test);
      const node = r.node.get(test);
      if (sandbox?.ok && node?.ok) continue;
      lines.push(test, `   sandbox: ${sandbox?.ok ? "pass" : (sandbox?.message ?? "no result")}`);
      lines.push(`   Node:    ${node?.ok ? "pass" : (node?.message ?? "no result")}`);
    }
  }
  return lines;
}
