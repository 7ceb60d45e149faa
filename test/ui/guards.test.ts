/**
 * The UI server's guards against the real host, over real loopback HTTP: the one-time URL from
 * `svc-host ui --url`, a reused ticket, wrong Host, foreign Origin, cross-site fetches, no
 * session, OPTIONS, the 1 MB body limit, GETs that change nothing, and the headers of every answer.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { request } from "node:http";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { HOST_MAIN, makeWorld, webhookInfo } from "../host/harness.js";
import { runUiCommand } from "../../host/src/ui-server/index.js";
import { uiUrl, useUiScene } from "./harness.js";

const scene = useUiScene({ browser: false });
let port: number;

beforeAll(async () => {
  port = Number(new URL(await uiUrl(scene.world)).port);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so Host and every other header is exactly what the test says. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        if (res.headers["content-type"]?.startsWith("text/event-stream")) {
          // A stream never ends by itself: take its head and leave.
          res.once("data", () => {
            resolve({ status: res.statusCode!, headers: res.headers, body: "" });
            req.destroy();
          });
        }
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = (value: unknown) => ({ "Content-Type": "application/json", body: JSON.stringify(value) });

async function session(): Promise<string> {
  const ticket = (await uiUrl(scene.world)).split("#t=")[1];
  const answer = await raw("POST", "/api/session", { "Content-Type": "application/json" }, JSON.stringify({ ticket }));
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { token: string }).token;
}

describe("the one-time URL", () => {
  it("svc-host ui --url prints http://127.0.0.1:<ui-port>/#t=<ticket>", async () => {
    const url = await uiUrl(scene.world);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#t=[A-Za-z0-9_-]{43}$/);
    expect(Number(new URL(url).port)).not.toBe((await webhookInfo(scene.world)).port);
  });

  it("POST /v1/ui/tickets needs the bearer token, like every /v1 route", async () => {
    const { port: v1 } = await webhookInfo(scene.world);
    const answer = await fetch(`http://127.0.0.1:${v1}/v1/ui/tickets`, { method: "POST" });
    expect(answer.status).toBe(401);
  });

  it("a ticket works once", async () => {
    const ticket = (await uiUrl(scene.world)).split("#t=")[1];
    const first = await raw("POST", "/api/session", { "Content-Type": "application/json" }, JSON.stringify({ ticket }));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await raw("POST", "/api/session", { "Content-Type": "application/json" }, JSON.stringify({ ticket }));
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body)).toEqual({
      error: "this ticket is unknown or used already: ask for a new one: run svc-host ui",
    });
  });

  it("svc-host ui opens that address in the browser through a redirect page (here: a recorder in the opener's place)", async () => {
    const opened: string[] = [];
    const out: string[] = [];
    const code = await runUiCommand([], {
      supportRoot: scene.world.home,
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      open: async (url) => void opened.push(url),
    });
    expect(code).toBe(0);
    expect(opened).toHaveLength(1);
    // The opener gets the page's file:// address; the ticket is only inside the page.
    expect(opened[0]).toMatch(/^file:\/\/\/.*\/ui-open\/open-[0-9a-f]{16}\.html$/);
    const page = await readFile(fileURLToPath(opened[0]), "utf8");
    expect(page).toMatch(
      new RegExp(`<meta http-equiv="refresh" content="0;url=http://127\\.0\\.0\\.1:${port}/#t=[A-Za-z0-9_-]{43}">`),
    );
    expect(out).toEqual(["Opened the svc UI in your browser.\n"]);
    expect(
      await runUiCommand(["--nope"], { supportRoot: scene.world.home, out: () => {}, err: (t) => out.push(t) }),
    ).toBe(2);
    expect(out[1]).toMatch(/^svc-host ui: unknown option --nope\nUsage: svc-host ui \[--url\]/);
  });

  it("svc-host ui prints the address on its own line when no browser can be opened", async () => {
    // No PATH: the real opener (xdg-open, open or start) cannot be found, as on a bare server.
    const run = await promisify(execFile)(process.execPath, [HOST_MAIN, "ui"], {
      env: { SVC_HOME: scene.world.home, PATH: "" },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect((run as { code: number }).code).toBe(1);
    const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "cmd" : "xdg-open";
    expect(run.stderr).toBe(
      `svc-host ui: could not open a browser (${opener} is missing); open this address yourself, once, within a minute:\n`,
    );
    expect(run.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#t=[A-Za-z0-9_-]{43}\n$`));
    // The printed ticket is unused: it opens a session.
    const ticket = run.stdout.trim().split("#t=")[1];
    const answer = await raw(
      "POST",
      "/api/session",
      { "Content-Type": "application/json" },
      JSON.stringify({ ticket }),
    );
    expect(answer.status).toBe(200);
  });

  it("svc-host ui says so when svc is not running", async () => {
    const empty = await makeWorld();
    try {
      const run = await promisify(execFile)(process.execPath, [HOST_MAIN, "ui", "--url"], {
        env: { ...process.env, SVC_HOME: empty.home },
      }).catch((error: { code: number; stderr: string }) => error);
      expect((run as { code: number }).code).toBe(1);
      expect((run as { stderr: string }).stderr).toMatch(/^svc-host ui: /);
    } finally {
      await empty.remove();
    }
  });
});

describe("guards on every request", () => {
  it("refuses a wrong Host (DNS rebinding), on the page and the API", async () => {
    for (const path of ["/", "/api/events", "/api/session"]) {
      const answer = await raw("GET", path, { Host: `evil.example:${port}` });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({
        error: `Host "evil.example:${port}": open http://127.0.0.1:${port}/ itself`,
      });
    }
    expect((await raw("GET", "/", { Host: `127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await raw("GET", "/", { Host: `localhost:${port}` })).status).toBe(200);
  });

  it("refuses a foreign Origin and takes its own", async () => {
    const token = await session();
    const foreign = await raw(
      "POST",
      "/api/run",
      { Origin: "http://127.0.0.1:9", Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      "{}",
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual({ error: "requests from other web pages are not allowed" });
    const own = await raw(
      "POST",
      "/api/run",
      { Origin: `http://127.0.0.1:${port}`, Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      JSON.stringify({ extensionId: "none" }),
    );
    expect(own.status).toBe(404);
  });

  it("refuses cross-site and same-site fetches", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const answer = await raw("GET", "/", { "Sec-Fetch-Site": site });
      expect(answer.status).toBe(403);
    }
    expect((await raw("GET", "/", { "Sec-Fetch-Site": "none" })).status).toBe(200);
    expect((await raw("GET", "/", { "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
  });

  it("the API needs a session", async () => {
    const none = await raw("GET", "/api/events");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    const wrong = await raw("GET", "/api/events", { Authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    const token = await session();
    const feed = await raw("GET", "/api/events", { Authorization: `Bearer ${token}` });
    expect(feed.status).toBe(200);
    expect(feed.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
  });

  it("OPTIONS is 405 and no answer carries Access-Control headers", async () => {
    const token = await session();
    for (const path of ["/", "/api/actions"]) {
      const answer = await raw("OPTIONS", path, {
        Authorization: `Bearer ${token}`,
        "Access-Control-Request-Method": "POST",
        Origin: `http://127.0.0.1:${port}`,
      });
      expect(answer.status).toBe(405);
      expect(Object.keys(answer.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
    }
  });

  it("takes JSON bodies of exactly 1 MB and refuses one byte more", async () => {
    const token = await session();
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const shell = JSON.stringify({ extensionId: "none", pad: "" });
    const atLimit = shell.replace('"pad":""', `"pad":"${"x".repeat(1_048_576 - shell.length)}"`);
    expect(Buffer.byteLength(atLimit)).toBe(1_048_576);
    expect((await raw("POST", "/api/run", headers, atLimit)).status).toBe(404); // read and parsed: no such extension
    const over = await raw("POST", "/api/run", headers, `${atLimit} `);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual({ error: "the body is over 1 MB (1048576 bytes)" });
    expect((await raw("POST", "/api/run", { ...headers, "Content-Type": "text/plain" }, "{}")).status).toBe(415);
    expect((await raw("POST", "/api/run", headers, "{nope")).status).toBe(400);
  });

  it("GETs change nothing: commands answer 405 to GET", async () => {
    const token = await session();
    for (const path of ["/api/actions", "/api/preferences", "/api/settings", "/api/run", "/api/session"]) {
      expect((await raw("GET", path, { Authorization: `Bearer ${token}` })).status).toBe(405);
    }
  });

  it("serves the page with the strict CSP and the other headers", async () => {
    const answer = await raw("GET", "/");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-security-policy"]).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    expect(answer.headers["set-cookie"]).toBeUndefined();
    const api = await raw("POST", "/api/session", { "Content-Type": "application/json" }, "{}");
    expect(api.headers["cache-control"]).toBe("no-store");
    expect((await raw("GET", "/../package.json")).status).toBe(404);
    const app = await raw("GET", "/app.js");
    expect(app.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    // The first paint depends on it: lit, the views, the display rule and the icon table's Lucide
    // drawings (86 KB of about 183 KB with the notch, grants and device sign-in; ui/README.md
    // "Icons"), never zod (~450 KB).
    expect(Number(app.headers["content-length"])).toBeLessThan(200_000);
    expect((await raw("GET", "/boot.js")).status).toBe(200);
  });
});
