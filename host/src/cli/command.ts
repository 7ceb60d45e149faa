/**
 * `svc-host list | enable | disable | uninstall | set | run`: managing extensions from a
 * terminal. Each talks to the running app over `/v1/extensions`, or acts on the support folder
 * when svc is not running. Exit codes: 0 done, 1 refused or failed (the one-line reason on
 * stderr), 2 a usage mistake, 130 Ctrl-C at a prompt.
 */
import { escapeForDisplay } from "@svc/api";
import { grantQuestion } from "../review/index.js";
import type { OpenedManager } from "./open-manager.js";
import { Interrupted, type ManageIo } from "./terminal.js";
import { ManageError, type ExtensionInfo, type OptionInfo } from "../manage/index.js";
import { unknownExtension } from "../manage/index.js";
import { crashText, errorLine } from "../support/index.js";

export const MANAGE_COMMANDS = ["list", "enable", "disable", "uninstall", "accept", "set", "run"] as const;
export type ManageCommandName = (typeof MANAGE_COMMANDS)[number];

const USAGE: Record<ManageCommandName, string> = {
  list: `usage: svc-host list [--json]
  Every extension found: id, version, source (bundled, user, dev), enabled, status, tools and
  its last error. --json prints the same as one JSON array.`,
  enable: `usage: svc-host enable <id>
  Turns an extension back on; a running svc loads it at once.`,
  disable: `usage: svc-host disable <id>
  Turns an extension off (it stays installed, with its data and options); a running svc
  unloads it at once and its blips go.`,
  uninstall: `usage: svc-host uninstall <id> [--yes]
  After you confirm (--yes: already confirmed), removes an installed extension: its folder in
  Extensions/ (only the link, for one svckit dev linked), Data/<id>/, Preferences/<id>.json,
  its compiled code and its secrets, password options and sign-ins in the secret store.
  Extensions that come with svc cannot be uninstalled: disable them.`,
  accept: `usage: svc-host accept <id> [--yes]
  An installed extension whose files changed on disk since you installed it is not loaded.
  This shows the review an update shows (what it can reach, what it gains, which files
  changed) and, once you agree (--yes: already agreed), records it as approved; a running svc
  loads it at once. To drop it instead: svc-host uninstall <id>.`,
  set: `usage: svc-host set <id> <option> [value] [--yes] | --clear
  Sets one option as Settings does, checked against its declaration. Leave the value out to
  be asked for it; a password option is always asked for (never on the command line, where
  the shell's history keeps it) and not shown as you type. --clear returns it to its default.
  checkbox: true or false; number: a number; dropdown: one of its values; url: a server's
  address, which the extension may then connect to once you allow it (--yes: already allowed);
  clearing or changing it takes that back.`,
  run: `usage: svc-host run <id>
  Runs the extension's update() now (trigger manual). Needs svc running.`,
};

/** True for the words `runManageCommand` takes. */
export function isManageCommand(word: string | undefined): word is ManageCommandName {
  return (MANAGE_COMMANDS as readonly string[]).includes(word ?? "");
}

/** The usage of one command, for `svc-host <command> --help`. */
export function manageUsage(command: ManageCommandName): string {
  return `${USAGE[command]}\n\nWith svc running these go to it over its local API; otherwise they change the support\nfolder (SVC_HOME) and take effect when svc starts.\n`;
}

export interface ManageContext {
  io: ManageIo;
  /** The running app's manager, or the support folder's. */
  open(): Promise<OpenedManager>;
}

class UsageError extends Error {}

/** JSON whose unsafe characters (bidi controls, C1…) are `\u` escapes: same value, inert on a terminal. */
function inertJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A table with a header, columns padded to their widest cell; every cell made inert. */
function table(rows: string[][]): string {
  const cells = rows.map((row) => row.map((cell) => escapeForDisplay(cell, { max: 200 })));
  const widths = cells[0].map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return (
    cells
      .map((row) =>
        row
          .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column])))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

function listText(extensions: ExtensionInfo[], app: OpenedManager["app"]): string {
  const where = app ? `svc is running (pid ${app.pid})` : "svc is not running: statuses show from the next start";
  if (extensions.length === 0) return `No extensions found. (${where})\n`;
  const rows = [["ID", "VERSION", "SOURCE", "ENABLED", "STATUS", "TOOLS", "LAST ERROR"]];
  for (const ext of extensions) {
    rows.push([
      ext.id,
      ext.version ?? "-",
      ext.origin === "dev" ? "dev link" : ext.origin,
      ext.enabled ? "yes" : "no",
      ext.status,
      ext.tools.length ? ext.tools.join(",") : "-",
      ext.error ?? "",
    ]);
  }
  return `${table(rows)}(${where})\n`;
}

/** The argv word as the option's kind of value; what does not fit is passed on as text, for the host's own message. */
function valueFromWord(option: OptionInfo, word: string): unknown {
  if (option.type === "checkbox") {
    if (/^(true|yes|on)$/i.test(word)) return true;
    if (/^(false|no|off)$/i.test(word)) return false;
    return word;
  }
  if (option.type === "number") return word.trim() !== "" && Number.isFinite(Number(word)) ? Number(word) : word;
  return word;
}

async function findInfo(opened: OpenedManager, id: string): Promise<ExtensionInfo> {
  const found = (await opened.manager.list()).find((ext) => ext.id === id);
  if (!found) throw unknownExtension(id);
  return found;
}

/**
 * An answer read off a pipe that gave nothing (stdin closed, or an empty line) is no answer: it
 * would clear the option without the person asking for that. `--clear` is how to clear.
 */
function refuseEmptyPipe(io: ManageIo, id: string, name: string, answer: string): string {
  if (answer === "" && !io.isTTY)
    throw new ManageError(
      `no value for ${name}: stdin is not a terminal and gave none; give it as a word (svc-host set ${escapeForDisplay(id)} ${name} <value>), pipe it in, or clear it with --clear`,
      "invalid",
    );
  return answer;
}

/**
 * Asks the person to let the extension reach the server of a `url` option (the question the page
 * asks, from the same function); the origin they allowed, or undefined when they did not.
 */
async function allowServer(context: ManageContext, title: string, address: string, yes: boolean) {
  const { io } = context;
  const grant = grantQuestion(title, address);
  // Not an address: the host's own check says what is wrong.
  if (!grant) return { origin: undefined, refused: false };
  io.out(
    `${escapeForDisplay(grant.question, { max: 300 })}\n  ${escapeForDisplay(grant.origin)}${grant.risk ? `\n  ! ${grant.risk}` : ""}\n`,
  );
  if (yes) return { origin: grant.origin, refused: false };
  if (!io.isTTY)
    throw new ManageError(
      "not set: stdin is not a terminal to ask on; run again with --yes to allow it",
      "not-allowed",
    );
  const answer = await io.ask("Allow? [y/N] ");
  return /^y(es)?$/i.test(answer.trim())
    ? { origin: grant.origin, refused: false }
    : { origin: undefined, refused: true };
}

async function setCommand(context: ManageContext, words: string[], clear: boolean, yes: boolean): Promise<number> {
  const { io } = context;
  if (words.length < 2 || words.length > 3 || (clear && words.length !== 2))
    throw new UsageError("give an extension id, an option name and a value (or --clear)");
  const [id, name, word] = words;
  const opened = await context.open();
  const info = await findInfo(opened, id);
  const option = info.options.find((o) => o.name === name);
  if (!option) {
    const names = info.options.map((o) => o.name);
    throw new ManageError(
      `${id} has no option ${JSON.stringify(name)}; ${names.length ? `its options are: ${names.join(", ")}` : "it declares no options"}`,
      "invalid",
    );
  }
  let value: unknown;
  if (clear) value = null;
  else if (option.type === "password") {
    if (word !== undefined)
      throw new UsageError(
        `"${name}" is a password option: leave the value out and type it when asked (the shell's history would keep it)`,
      );
    value = refuseEmptyPipe(
      io,
      id,
      name,
      await io.askHidden(`${escapeForDisplay(option.title, { max: 80 })} (${name}, not shown): `),
    );
  } else {
    const typed =
      word ??
      refuseEmptyPipe(
        io,
        id,
        name,
        await io.ask(
          `${escapeForDisplay(option.title, { max: 80 })} (${name}${option.choices ? `: ${option.choices.join(", ")}` : ""}): `,
        ),
      );
    value = valueFromWord(option, typed);
  }
  let allowed: string | undefined;
  if (option.type === "url" && value !== null) {
    const answer = await allowServer(context, info.title ?? id, String(value), yes);
    if (answer.refused) {
      io.out("Not set.\n");
      return 1;
    }
    allowed = answer.origin;
  }
  await opened.manager.setOption(id, name, value, allowed);
  const shown =
    option.type === "password" || value === null ? "" : ` = ${escapeForDisplay(JSON.stringify(value), { max: 120 })}`;
  // A turned-off extension does not run: the value waits until it is turned on.
  const when = !info.enabled
    ? "; used once it is turned on"
    : opened.app
      ? "; it runs again with the new value"
      : "; used from the next start";
  io.out(`${value === null ? "Cleared" : "Set"} ${escapeForDisplay(id)} ${name}${shown}${when}\n`);
  return 0;
}

async function uninstallCommand(context: ManageContext, id: string, yes: boolean): Promise<number> {
  const { io } = context;
  const opened = await context.open();
  const info = await findInfo(opened, id);
  if (info.origin === "bundled")
    throw new ManageError(
      `${id} comes with svc and cannot be uninstalled; turn it off instead: svc-host disable ${id}`,
      "not-allowed",
    );
  const name = `${escapeForDisplay(info.title ?? info.id, { max: 80 })} ${info.version ?? ""}`.trim();
  if (!yes) {
    if (!io.isTTY)
      throw new ManageError(
        "not uninstalled: stdin is not a terminal to ask on; run again with --yes to agree",
        "not-allowed",
      );
    const what =
      info.origin === "dev"
        ? `the link ${escapeForDisplay(info.folder)} (your folder stays)`
        : escapeForDisplay(info.folder);
    io.out(`This removes ${what}, its data, its options and its secrets and sign-ins.\n`);
    const answer = await io.ask(`Uninstall ${name} (${escapeForDisplay(id)})? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.out("Not uninstalled.\n");
      return 1;
    }
  }
  const report = await opened.manager.uninstall(id);
  io.out(`Uninstalled ${name}\n`);
  for (const path of report.removed) io.out(`  removed ${escapeForDisplay(path)}\n`);
  if (report.secrets.length)
    io.out(
      `  forgot ${report.secrets.length} from the secret store: ${report.secrets.map((account) => escapeForDisplay(account)).join(", ")}\n`,
    );
  for (const problem of report.problems) io.err(`svc-host uninstall: ${escapeForDisplay(problem)}\n`);
  return report.problems.length ? 1 : 0;
}

async function acceptCommand(context: ManageContext, id: string, yes: boolean): Promise<number> {
  const { io } = context;
  const opened = await context.open();
  const review = await opened.manager.review(id);
  // Every line of the text was made inert where it was written (review/summary.ts).
  io.out(review.summary.text);
  if (!yes) {
    if (!io.isTTY)
      throw new ManageError(
        "not accepted: stdin is not a terminal to ask on; run again with --yes to agree",
        "not-allowed",
      );
    const answer = await io.ask(
      `Accept ${escapeForDisplay(`${review.summary.title} ${review.summary.version}`, { max: 80 })} as it is now? [y/N] `,
    );
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.out("Not accepted.\n");
      return 1;
    }
  }
  await opened.manager.accept(id, review.reviewed);
  io.out(
    `${escapeForDisplay(`Accepted ${review.summary.title} ${review.summary.version} (${id})`)}${opened.app ? "; it loads now" : "; it loads when svc starts"}\n`,
  );
  return 0;
}

/**
 * @param command one of `MANAGE_COMMANDS`
 * @param argv the words after it
 * @example
 * await runManageCommand("disable", ["com.example.ci"], context); // 0, "Turned off com.example.ci"
 */
export async function runManageCommand(
  command: ManageCommandName,
  argv: readonly string[],
  context: ManageContext,
): Promise<number> {
  const { io } = context;
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(manageUsage(command));
    return 0;
  }
  const flags = new Set(argv.filter((word) => word.startsWith("-") && word !== "-"));
  const words = argv.filter((word) => !flags.has(word));
  const allowed: Record<ManageCommandName, string[]> = {
    list: ["--json"],
    enable: [],
    disable: [],
    uninstall: ["--yes", "-y"],
    accept: ["--yes", "-y"],
    set: ["--clear", "--yes", "-y"],
    run: [],
  };
  try {
    const unknown = [...flags].find((flag) => !allowed[command].includes(flag));
    if (unknown) throw new UsageError(`unknown option ${unknown}`);
    if (command === "list") {
      if (words.length) throw new UsageError(`list takes no extension id`);
      const opened = await context.open();
      const extensions = await opened.manager.list();
      io.out(flags.has("--json") ? `${inertJson(extensions)}\n` : listText(extensions, opened.app));
      return 0;
    }
    if (command === "set")
      return await setCommand(context, words, flags.has("--clear"), flags.has("--yes") || flags.has("-y"));
    if (words.length !== 1) throw new UsageError("give exactly one extension id");
    const [id] = words;
    if (command === "uninstall") return await uninstallCommand(context, id, flags.has("--yes") || flags.has("-y"));
    if (command === "accept") return await acceptCommand(context, id, flags.has("--yes") || flags.has("-y"));
    const opened = await context.open();
    await opened.manager[command](id);
    const later = opened.app ? "" : "; takes effect when svc starts";
    const done = { enable: `Turned on ${id}${later}`, disable: `Turned off ${id}${later}`, run: `Asked ${id} to run` }[
      command
    ];
    io.out(`${escapeForDisplay(done)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${errorLine(`svc-host ${command}`, error)}${USAGE[command].split("\n")[0]}\n`);
      return 2;
    }
    if (error instanceof Interrupted) return 130;
    if (error instanceof ManageError || (error as Error)?.name === "WebhookFileError") {
      io.err(errorLine(`svc-host ${command}`, error));
      return 1;
    }
    io.err(crashText(`svc-host ${command}`, error));
    return 1;
  }
}
