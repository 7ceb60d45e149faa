/** Guest errors built from the `{name, message}` records the host sends back. */

const CONSTRUCTORS: Record<string, ErrorConstructor> = {
  TypeError,
  RangeError,
  SyntaxError,
  URIError,
};

/**
 * An Error of the named kind (`TypeError` …; anything else is an `Error` carrying that name).
 *
 * @example throw makeError("AbortError", "The operation was aborted.");
 */
export function makeError(name: string, message: string): Error {
  const Ctor = CONSTRUCTORS[name];
  if (Ctor) return new Ctor(message);
  const error = new Error(message);
  if (name && name !== "Error")
    Object.defineProperty(error, "name", { value: name, writable: true, configurable: true });
  return error;
}

/** A short, safe description of anything thrown, for reporting to the host (with the stack, for the author's log). */
export function describeThrown(thrown: unknown): { name: string; message: string; stack?: string } {
  try {
    if (thrown instanceof Error) {
      const stack = typeof thrown.stack === "string" ? thrown.stack.slice(0, 4_000) : undefined;
      return { name: String(thrown.name), message: String(thrown.message), ...(stack ? { stack } : {}) };
    }
    if (typeof thrown === "string") return { name: "Error", message: thrown };
    return { name: "Error", message: String(thrown) };
  } catch {
    return { name: "Error", message: "a value that cannot be shown was thrown" };
  }
}
