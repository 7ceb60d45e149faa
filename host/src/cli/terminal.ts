/**
 * What the management commands need from a terminal: print, ask a question, and read a
 * password without echo. Off a terminal (a pipe, a test) answers are read from stdin, a line
 * each, which never echoes either.
 */
import { createInterface } from "node:readline";

export interface ManageIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stdin is a terminal a person types on. */
  isTTY: boolean;
  /** Asks and resolves with the answer line (without its line end). */
  ask(question: string): Promise<string>;
  /** Asks for a secret; what is typed is not shown. */
  askHidden(question: string): Promise<string>;
}

/** Ctrl-C at a prompt. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  constructor() {
    super("interrupted");
  }
}

let pipedLines: AsyncIterator<string> | undefined;

/** The next line of a piped stdin ("" at its end). */
async function nextPipedLine(): Promise<string> {
  pipedLines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const next = await pipedLines.next();
  return next.done ? "" : next.value;
}

/**
 * Shows `question` and reads one line in raw mode, showing nothing; Backspace erases, Ctrl-C
 * and Ctrl-D end. Raw mode is on before the question shows, so nothing typed after it echoes.
 */
function readHiddenLine(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (settle: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      settle();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish(() => resolve(typed.join("")));
        if (char === "\u0003") return finish(() => reject(new Interrupted()));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed.push(char);
      }
    };
    stdin.setEncoding("utf8");
    stdin.setRawMode(true);
    process.stderr.write(question);
    stdin.resume();
    stdin.on("data", onData);
  });
}

/**
 * The process's terminal. Prompts go to stderr, so `svc-host list --json > file` stays clean.
 *
 * @example
 * process.exitCode = await runManageCommand(argv, { io: terminalManageIo(), open });
 */
export function terminalManageIo(): ManageIo {
  const isTTY = process.stdin.isTTY === true;
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    isTTY,
    async ask(question) {
      if (!isTTY) {
        process.stderr.write(question);
        return nextPipedLine();
      }
      // readline takes the terminal first, then shows the question: nothing typed echoes twice.
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      try {
        return await new Promise<string>((resolve, reject) => {
          rl.once("SIGINT", () => reject(new Interrupted()));
          rl.question(question, resolve);
        });
      } finally {
        rl.close();
      }
    },
    async askHidden(question) {
      if (isTTY) return readHiddenLine(question);
      process.stderr.write(question);
      return nextPipedLine();
    },
  };
}
