#!/usr/bin/env node
/**
 * svc-host: the app core, headless. Shows the live blips of every extension in the terminal.
 * Settings come from the environment (host/README.md lists them). Subcommand: `install`.
 */
import { fileURLToPath } from "node:url";
import { ManualClock, systemClock } from "./clock/index.js";
import { createDisplay } from "./display/index.js";
import { settingsFromEnv } from "./app/options.js";
import { startHost } from "./app/host.js";
import { endWithParent, quietWriter, type Lifetime } from "@svc/runtime";
import { listenForControl } from "./control/index.js";
import { runtimeMainPath } from "./supervisor/index.js";
import {
  hasStaged,
  INSTALL_USAGE,
  runAcceptStagedCommand,
  runInstallCommand,
  runRevokeCommand,
  runUpdateCommand,
  terminalIo,
} from "./install/index.js";
import { errorLine, supportRoot } from "./support/index.js";
import { CATALOG_USAGE, CatalogError, installTarget, runCatalogCommand } from "./catalog/index.js";
import { escapeForDisplay } from "@svc/api";
import { runUiCommand } from "./ui-server/index.js";
import { isManageCommand, runManageCli } from "./cli/index.js";

const HELP = `svc-host: runs svc's extensions and shows their blips in the terminal.

Usage:
  svc-host                              run the host (Ctrl-C stops it)
  svc-host install <file.svc | https://…/x.svc | catalog name> [--yes] [--downgrade]
                                        show who made it and what it can reach, ask, then install it
                                        into <support folder>/Extensions/ (a running host loads it);
                                        a name is a package of svc's catalog (svc-host catalog);
                                        --downgrade: allow an older version than the installed one;
                                        an update that can do more is staged until svc-host accept;
                                        an https address is remembered for svc-host update
  svc-host update [<id>]                check the addresses extensions were installed from: a newer
                                        version that gains nothing is installed, one that gains
                                        anything is staged, another author's is refused
  svc-host catalog [--json]             the extensions that come with svc but are off until added:
                                        each one's sentence and what it can reach
  svc-host ui [--url]                   open the notch UI of the running svc in the browser
                                        (--url prints a one-time address instead)
  svc-host list [--json]                every extension: id, version, source, enabled, status, tools, last error
  svc-host enable <id> | disable <id>   turn an extension on or off
  svc-host uninstall <id> [--yes]       remove an installed extension and all svc kept for it
  svc-host accept <id> [--yes]          review a staged update, or an installed extension changed on disk,
                                        then approve it
  svc-host revoke [--file] <file>       import its author's signed revocation (svckit revoke) or lost-key
                                        statement (svckit rotate --lost-after): the versions it names are
                                        no longer loaded; nothing is deleted
  svc-host set <id> <option> [value]    set an option (a password is asked for, never on the command line)
  svc-host run <id>                     run an extension now
  svc-host <command> --help             more about one command
  svc-host --help                       this text

  The commands above talk to the running svc, or change the support folder when it is not running.

Environment:
  SVC_HOME                 support folder (default: the platform's, e.g. ~/.local/share/Svc)
  SVC_PORT                 HTTP port (default 47811; a free one when taken)
  SVC_UI_PORT              the notch UI's port (default: a free one)
  SVC_BUNDLED_EXTENSIONS   bundled extension folders, ${process.platform === "win32" ? ";" : ":"}-separated (default: this repository's extensions/)
  SVC_HOST_OUTPUT          auto | live | lines | json
  SVC_LOG_LEVEL            debug | info | warn | error
  SVC_HOST_CLOCK           system | manual (time moves only by control commands)
  SVC_HOST_CONTROL         stdin: read JSON commands on stdin (pause, resume, run, action,
                           set-preference, advance, stop)
  SVC_RUNTIME              the svc-runtime main.js to spawn
  SVC_HOST_RESTART_DELAY_MS  first wait before restarting a runtime that died (default 500)
  SVC_AGENT_FILES_TIMEOUT_MS  how long an agent's file request waits for your answer in the
                           notch (default 50000)
  SVC_OPEN_URLS            1: open pages extensions ask for (and sign-in pages) with xdg-open;
                           otherwise they are only shown
  SVC_OAUTH_PORT           the sign-in callback port (default 47812)
  SVC_RUNTIME_*            runtime limits, passed through (see runtime/README.md)

Secrets, password options and sign-in tokens live in the system's secret store (on Linux a
Secret Service such as gnome-keyring); without one the host runs, but refuses to keep them.
`;

/** This repository's extensions/: what runs by default (bundled.json) and the catalog beside it. */
const DEFAULT_BUNDLED = fileURLToPath(new URL("../../extensions/", import.meta.url));

/** The bundled roots a command reads the catalog from (SVC_BUNDLED_EXTENSIONS, as the host does). */
function bundledRoots(): string[] {
  return settingsFromEnv(process.env, DEFAULT_BUNDLED, () => {}).bundled;
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (first === "install") {
    if (rest.includes("--help") || rest.includes("-h")) return void process.stdout.write(`${INSTALL_USAGE}\n`);
    // A bare name is a catalog package (svc-host catalog lists them); its .svc is reviewed as any other.
    const at = rest.findIndex((word) => !word.startsWith("-"));
    try {
      if (at >= 0) rest[at] = await installTarget(rest[at], bundledRoots());
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      process.stderr.write(errorLine("svc-host install", error));
      return void (process.exitCode = 1);
    }
    process.exitCode = await runInstallCommand(rest, terminalIo(supportRoot()));
    return;
  }
  if (first === "update") return void (process.exitCode = await runUpdateCommand(rest, terminalIo(supportRoot())));
  if (first === "catalog") {
    if (rest.includes("--help") || rest.includes("-h")) return void process.stdout.write(`${CATALOG_USAGE}\n`);
    return void (process.exitCode = await runCatalogCommand(rest, {
      bundled: bundledRoots(),
      supportDir: supportRoot(),
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
    }));
  }
  if (first === "revoke") return void (process.exitCode = await runRevokeCommand(rest, terminalIo(supportRoot())));
  // An update staged by `svc-host install` (it gains something) is accepted from its package.
  const [acceptId] = rest.filter((word) => !word.startsWith("-"));
  if (first === "accept" && acceptId && (await hasStaged(supportRoot(), acceptId)))
    return void (process.exitCode = await runAcceptStagedCommand(
      acceptId,
      rest.includes("--yes") || rest.includes("-y"),
      terminalIo(supportRoot()),
    ));
  if (first === "ui")
    return void (process.exitCode = await runUiCommand(rest, {
      supportRoot: supportRoot(),
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
    }));
  if (isManageCommand(first)) return void (process.exitCode = await runManageCli(first, rest));
  if (first !== undefined) {
    process.stderr.write(
      errorLine("svc-host", `unknown ${first.startsWith("-") ? "option" : "command"} ${first}; run svc-host --help`),
    );
    process.exitCode = 2;
    return;
  }
  const settings = settingsFromEnv(process.env, DEFAULT_BUNDLED, (message) =>
    process.stderr.write(`svc-host: ${message}\n`),
  );
  const clock = settings.manualClock ? new ManualClock() : systemClock;
  const display = createDisplay(settings.output, process.stdout, settings.logLevel);
  // Signals, the parent's death and a closed terminal are heard from the start: one that comes
  // while starting stops the host once it is up. Every way ends through one clean stop (blip
  // store written, runtime shut down) with a deadline (process-lifetime.ts in @svc/runtime).
  const starting = startHost({
    bundled: settings.bundled,
    clock,
    display,
    runtimeMain: settings.runtimeMain ?? runtimeMainPath(),
    backoff: settings.backoff,
    openURLs: settings.openURLs,
    ...(settings.agentFilesTimeoutMs === undefined ? {} : { agentFilesTimeoutMs: settings.agentFilesTimeoutMs }),
    ...(settings.oauthPort === undefined ? {} : { oauthPort: settings.oauthPort }),
  });
  const lifetime = endWithParent({ note, stop: async () => (await starting).stop() });
  ending = lifetime;
  quietWriter(process.stdout, () => void lifetime.end("stdout closed"));
  if (stderr.broken) void lifetime.end("stderr closed");
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    void lifetime.end("SIGINT");
  });
  const running = await starting;
  const stop = () => lifetime.end("stop requested");
  if (settings.controlOnStdin) {
    listenForControl({
      input: process.stdin,
      host: {
        pause: () => running.pause(),
        resume: () => running.resume(),
        runNow: (id, trigger) => running.runNow(id, trigger),
        action: (press) => running.action(press),
        setPreference: (id, name, value, allowed) => running.setPreference(id, name, value, allowed),
        stop,
      },
      clock: clock instanceof ManualClock ? clock : undefined,
      now: () => clock.now(),
      emit: (event) => display.show(event),
    });
  }
}

// Diagnostics never raise: once stderr is gone (its terminal closed) they are dropped, so an
// uncaught error can never loop writing about itself to a dead stream.
const stderr = quietWriter(process.stderr, () => void ending?.end("stderr closed"));
/** How the running host ends (set once `main` starts it). */
let ending: Lifetime | undefined;
function note(message: string): void {
  stderr(`svc-host: ${message}\n`);
}

// Nothing an extension or a client does may end the host.
process.on("uncaughtException", (error) => note(`uncaught: ${error?.stack ?? String(error)}`));
process.on("unhandledRejection", (reason) =>
  note(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`),
);

main().catch((error: unknown) => {
  note(`could not start: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
