/**
 * `svc-host ui [--url]`: asks the running app (over the authenticated `/v1` API, with the token
 * from webhook.json) for a one-time UI address; prints it with `--url`, otherwise opens it in the
 * default browser. The ticket in it works once, within a minute.
 */
import { spawn } from "node:child_process";
import { readWebhookFile, supportPaths } from "../support/index.js";

export const UI_USAGE = `Usage: svc-host ui [--url]
  Opens the notch UI of the running svc in your default browser.
  --url   print the one-time address instead (it works once, within a minute)`;

export interface UiCommandIo {
  supportRoot: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Opens an address in the default browser; default: xdg-open / open / start. */
  open?: (url: string) => Promise<void>;
}

function openInBrowser(url: string): Promise<void> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "ENOENT"
            ? `${command} is missing; run svc-host ui --url and open the address yourself`
            : error.message,
        ),
      ),
    );
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}

/** Returns the exit code. */
export async function runUiCommand(args: string[], io: UiCommandIo): Promise<number> {
  const unknown = args.find((arg) => arg !== "--url");
  if (unknown !== undefined) {
    io.err(`svc-host ui: unknown option ${unknown}\n${UI_USAGE}\n`);
    return 2;
  }
  let url: string;
  try {
    const { port, token } = await readWebhookFile(supportPaths(io.supportRoot).webhookFile);
    const answer = await fetch(`http://127.0.0.1:${port}/v1/ui/tickets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => {
      throw new Error(`svc is not running (nothing answers on port ${port}): start it with svc-host`);
    });
    const body = (await answer.json().catch(() => ({}))) as { url?: unknown; error?: unknown };
    if (!answer.ok || typeof body.url !== "string")
      throw new Error(`svc refused: ${typeof body.error === "string" ? body.error : `HTTP ${answer.status}`}`);
    url = body.url;
  } catch (error) {
    io.err(`svc-host ui: ${(error as Error).message}\n`);
    return 1;
  }
  if (args.includes("--url")) {
    io.out(`${url}\n`);
    return 0;
  }
  try {
    await (io.open ?? openInBrowser)(url);
    io.out("Opened the svc UI in your browser.\n");
    return 0;
  } catch (error) {
    io.err(`svc-host ui: could not open a browser: ${(error as Error).message}\n`);
    return 1;
  }
}
