/**
 * `svc-host ui [--url]`: asks the running app (through the one client, @svc/runtime's
 * app-client.ts: the token from webhook.json, once the port proved it is svc) for a one-time UI address, of the UI's own
 * shape only; prints it with `--url`, otherwise opens it in the default browser through a
 * redirect page (redirect-page.ts), so the ticket is never on a command line. The ticket works
 * once, within a minute.
 */
import { spawn } from "node:child_process";
import { AppUnreachableError, callRoute, isUiAddress } from "@svc/runtime";
import { errorLine, supportPaths } from "../support/index.js";
import { writeRedirectPage } from "./redirect-page.js";

export const UI_USAGE = `Usage: svc-host ui [--url]
  Opens the notch UI of the running svc in your default browser.
  --url   print the one-time address instead (it works once, within a minute)`;

export interface UiCommandIo {
  supportRoot: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * Opens an address in the default browser; default: xdg-open / open / start. It is given the
   * redirect page's `file://` address, never the one-time address itself.
   */
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
      reject(new Error(error.code === "ENOENT" ? `${command} is missing` : error.message)),
    );
    // The opener's own verdict: xdg-open, for one, starts but exits 3 or 4 when it finds no
    // browser (a server, a container), and the person must then get the address another way.
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${signal ? `ended by ${signal}` : `exited with code ${code}`}`)),
    );
  });
}

/** Returns the exit code. */
export async function runUiCommand(args: string[], io: UiCommandIo): Promise<number> {
  const unknown = args.find((arg) => arg !== "--url");
  if (unknown !== undefined) {
    io.err(`${errorLine("svc-host ui", `unknown option ${unknown}`)}${UI_USAGE}\n`);
    return 2;
  }
  const paths = supportPaths(io.supportRoot);
  let url: string;
  try {
    const answer = await callRoute(paths.webhookFile, "uiTicket", {}).catch((error: Error) => {
      if (!(error instanceof AppUnreachableError) || error.reason === "not-svc") throw error;
      throw new Error(`svc is not running (nothing answers on port ${error.port}): start it with svc-host`);
    });
    const body = (typeof answer.body === "object" && answer.body !== null ? answer.body : {}) as {
      url?: unknown;
      error?: unknown;
    };
    if (answer.status !== 200 || typeof body.url !== "string")
      throw new Error(`svc refused: ${typeof body.error === "string" ? body.error : `HTTP ${answer.status}`}`);
    if (!isUiAddress(body.url))
      throw new Error(
        `svc answered an address that is not its UI's (http://127.0.0.1:<port>/#t=<ticket>): ${JSON.stringify(body.url.slice(0, 200))}`,
      );
    url = body.url;
  } catch (error) {
    io.err(errorLine("svc-host ui", error));
    return 1;
  }
  if (args.includes("--url")) {
    io.out(`${url}\n`);
    return 0;
  }
  try {
    await (io.open ?? openInBrowser)(await writeRedirectPage(paths.uiOpen, url));
    io.out("Opened the svc UI in your browser.\n");
    return 0;
  } catch (error) {
    // The ticket is still unused: the address itself, on its own line, lets the person go on.
    io.err(
      errorLine(
        "svc-host ui",
        `could not open a browser (${(error as Error).message}); open this address yourself, once, within a minute:`,
      ),
    );
    io.out(`${url}\n`);
    return 1;
  }
}
