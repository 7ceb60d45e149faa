/**
 * Why a tool run did not give blocks, as data: a kind (which the HTTP routes and the UI server
 * turn into a status) and one line for the person. The kinds are the route table of
 * host/README.md "Tools".
 */

/** Each way a run or drop can fail, with the HTTP status it answers. */
export const TOOL_ERROR_STATUS = {
  /** No such extension, tool or drop action: 404. */
  unknown: 404,
  /** The request's action, values or files do not fit the tool: 400, naming the field. */
  invalid: 400,
  /** An agent asked for something only the person may do: 403. */
  refused: 403,
  /** The tool threw, returned something the app can't show, or could not load: 502. */
  failed: 502,
  /** The runtime is restarting, the extension crashed and may not restart yet, or svc is stopping: 503. */
  unavailable: 503,
  /** No answer in time (the runtime gives up at 32 s, the host at 35 s): 504. */
  timeout: 504,
} as const;

export type ToolErrorKind = keyof typeof TOOL_ERROR_STATUS;

/**
 * @example
 * throw new ToolError("invalid", '"values.indent" should be one of "2", "tab"');
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return TOOL_ERROR_STATUS[this.kind];
  }
}
