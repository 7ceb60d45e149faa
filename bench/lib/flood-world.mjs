// The flood scenario of issue 31 (one extension must not take the face down), shared by
// bench/flood.mjs and test/host/flood.test.ts: a folder of bundled extensions holding
//   bench.flood  — on a webhook, logs and is denied in a tight loop for `seconds`, with as many
//                  dropdown choices as a manifest may declare (so every extensions update is big);
//   bench.ticker — on a webhook {n}, emits the blip `bench.ticker/tick` with value n at once;
// and a client of the running host: `/v1` calls, and the UI feed the page reads.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes one extension folder (package.json and dist/index.js). */
function writeExtension(folder, svc, code) {
  mkdirSync(join(folder, "dist"), { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: svc.id, version: "1.0.0", svc }, null, 2));
  writeFileSync(join(folder, "dist", "index.js"), code);
}

/** The most choices a manifest may hold in all, as dropdowns of the most choices each. */
function biggestOptions(limits) {
  const options = [];
  for (let left = limits.manifestChoicesInAll, i = 0; left > 0 && i < limits.manifestPreferences; i++) {
    const count = Math.min(left, limits.manifestDropdownChoices);
    left -= count;
    options.push({
      name: `region${i}`,
      title: `Region ${i}`,
      type: "dropdown",
      data: Array.from({ length: count }, (_, j) => ({
        title: `Choice ${j} `.padEnd(limits.manifestTitleChars, "x"),
        value: `c${j}`,
      })),
    });
  }
  return options;
}

/** Writes bench.flood and bench.ticker into `bundled`. */
export function writeFloodExtensions(bundled, limits) {
  writeExtension(
    join(bundled, "flood"),
    {
      id: "bench.flood",
      title: "Flood",
      triggers: { webhook: true },
      preferences: biggestOptions(limits),
    },
    `module.exports = { default: {
  async update() {},
  async onEvent(ctx, event) {
    const until = Date.now() + event.body.seconds * 1000;
    let n = 0;
    while (Date.now() < until) {
      n++;
      console.log("flood line " + n);
      await fetch("https://denied.example/" + n).catch(() => {});
    }
  },
} };`,
  );
  writeExtension(
    join(bundled, "ticker"),
    { id: "bench.ticker", title: "Ticker", triggers: { webhook: true } },
    `module.exports = { default: {
  async update() {},
  async onEvent(ctx, event) {
    await ctx.emit({ key: "tick", title: "Tick", layout: "stat", data: { value: event.body.n } });
  },
} };`,
  );
}

/**
 * A client of a running host: `/v1` with its token, and the UI feed (the page's SSE stream)
 * with waits on what arrives there.
 *
 * @example
 * const client = await connectFloodClient({ port, token });
 * const ms = await client.healthMs();
 */
export async function connectFloodClient({ port, token }) {
  const v1 = (method, path, body) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ticket = await (await v1("POST", "/v1/ui/tickets")).json();
  const ui = new URL(ticket.url);
  const session = await (
    await fetch(`${ui.origin}/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ticket: ui.hash.replace(/^#t=/, "") }),
    })
  ).json();
  const controller = new AbortController();
  const feed = await fetch(`${ui.origin}/api/events`, {
    headers: { Authorization: `Bearer ${session.token}` },
    signal: controller.signal,
  });
  const waiters = new Set();
  let closed = false;
  const counts = { extensions: 0, bytes: 0 };
  (async () => {
    let text = "";
    const reader = feed.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) {
        closed = true;
        for (const waiter of [...waiters]) waiter(undefined);
        return;
      }
      counts.bytes += value.length;
      text += value;
      let end;
      while ((end = text.indexOf("\n\n")) !== -1) {
        const frame = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^data: (.*)$/m.exec(frame);
        if (!data) continue;
        const event = JSON.parse(data[1]);
        if (event.type === "extensions") counts.extensions++;
        for (const waiter of [...waiters]) waiter(event);
      }
    }
  })();
  /** Resolves with the first feed event that matches. */
  const next = (match) =>
    new Promise((resolve, reject) => {
      const waiter = (event) => {
        if (event === undefined) reject(new Error("the UI feed closed (the host cut this client?)"));
        else if (match(event)) (waiters.delete(waiter), resolve(event));
      };
      if (closed) waiter(undefined);
      else waiters.add(waiter);
    });
  let n = 0;
  return {
    v1,
    counts,
    next,
    /** Milliseconds of one `GET /v1/health`. */
    async healthMs() {
      const started = performance.now();
      const answer = await v1("GET", "/v1/health");
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`/v1/health answered ${answer.status}`);
      return performance.now() - started;
    },
    /** Milliseconds from the ticker's webhook to its blip on the page's feed. */
    async blipMs() {
      const value = ++n;
      const started = performance.now();
      const arrived = next((e) => e.type === "blip" && e.id === "bench.ticker/tick" && e.blip?.data?.value === value);
      const answer = await v1("POST", "/v1/hooks/bench.ticker", { n: value });
      await answer.arrayBuffer();
      await arrived;
      return performance.now() - started;
    },
    /** Starts the flood for `seconds`. */
    async flood(seconds) {
      const answer = await v1("POST", "/v1/hooks/bench.flood", { seconds });
      await answer.arrayBuffer();
    },
    close: () => controller.abort(),
  };
}
