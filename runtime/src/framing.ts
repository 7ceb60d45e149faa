/**
 * NDJSON framing: bytes in, lines out; messages in, bytes out. Nothing here knows JSON-RPC.
 *
 * A line is everything up to a `\n` (a trailing `\r` is dropped). A line longer than the maximum
 * is discarded up to its newline and reported as `oversized`, so one bad line costs only itself.
 * Bytes that are not UTF-8 (a cut multi-byte character included) are reported as `not-utf8`.
 */
import type { Readable } from "node:stream";

/** The part of a writable stream the writer uses (so main.ts can hand it stdout's own write). */
export interface LineOutput {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  on(event: "error" | "close", listener: (...args: unknown[]) => void): unknown;
}

/** Default longest accepted line, newline excluded: 8 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;

/** One unit the splitter hands on. */
export type Frame =
  { kind: "line"; text: string } | { kind: "oversized"; bytes: number } | { kind: "not-utf8"; bytes: number };

/**
 * Turns a byte stream into frames. Pure: feed it chunks, get frames back.
 *
 * @example
 * const splitter = new LineSplitter(1024);
 * splitter.push(Buffer.from('{"a":1}\n{"b"')); // [{kind:"line", text:'{"a":1}'}]
 * splitter.push(Buffer.from(':2}\n'));          // [{kind:"line", text:'{"b":2}'}]
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an oversized line thrown away so far; -1 when not discarding. */
  private discarded = -1;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.finishLine(frames);
      start = newline + 1;
    }
    return frames;
  }

  /** The input ended: a last line without a newline still counts. */
  end(): Frame[] {
    const frames: Frame[] = [];
    if (this.pendingBytes > 0 || this.discarded > 0) this.finishLine(frames);
    return frames;
  }

  private take(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.discarded >= 0) {
      this.discarded += part.length;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      // Past the limit: stop keeping bytes, only count them until the newline.
      this.discarded = this.pendingBytes + part.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private finishLine(frames: Frame[]): void {
    if (this.discarded >= 0) {
      frames.push({ kind: "oversized", bytes: this.discarded });
      this.discarded = -1;
      return;
    }
    const bytes = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const length = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      frames.push({ kind: "not-utf8", bytes: length });
      return;
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    frames.push({ kind: "line", text });
  }
}

/**
 * Reads frames from a stream (the runtime's stdin).
 *
 * @example
 * new NdjsonReader(process.stdin).listen((frame) => handle(frame), () => shutdown());
 */
export class NdjsonReader {
  private readonly splitter: LineSplitter;

  constructor(
    private readonly input: Readable,
    options: { maxLineBytes?: number } = {},
  ) {
    this.splitter = new LineSplitter(options.maxLineBytes);
  }

  listen(onFrame: (frame: Frame) => void, onEnd?: () => void): void {
    const emit = (frames: Frame[]) => {
      for (const frame of frames) onFrame(frame);
    };
    this.input.on("data", (chunk: Buffer | string) => {
      emit(this.splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk));
    });
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      emit(this.splitter.end());
      onEnd?.();
    };
    this.input.on("end", finish);
    this.input.on("close", finish);
    this.input.on("error", finish);
  }
}

/**
 * Writes one JSON value per line (the runtime's stdout). After the stream fails (the reader
 * went away), writes are dropped and `closed` is true.
 *
 * @example
 * const writer = new NdjsonWriter(process.stdout);
 * writer.write({ jsonrpc: "2.0", method: "log", params: { level: "info", message: "hi" } });
 */
export class NdjsonWriter {
  private isClosed = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly output: LineOutput) {
    const close = () => {
      if (this.isClosed) return;
      this.isClosed = true;
      for (const listener of this.closeListeners) listener();
    };
    output.on("error", close);
    output.on("close", close);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Serializes and writes one message. Throws only when the value cannot be JSON (a bug). */
  write(message: unknown): void {
    const line = JSON.stringify(message) + "\n";
    if (this.isClosed) return;
    this.output.write(line);
  }

  /** Resolves once everything written so far has been handed to the OS. */
  drain(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    return new Promise((resolve) => this.output.write("", () => resolve()));
  }
}
