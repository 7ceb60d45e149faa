/** Every svckit command, in the order `svckit --help` lists them. */
import type { CommandDef } from "../command.js";
import { build } from "./build.js";
import { check } from "./check.js";
import { dev } from "./dev.js";
import { create } from "./new.js";
import { pack } from "./pack.js";
import { send } from "./send.js";
import { test } from "./test.js";
import { tool } from "./tool.js";
import { mcp } from "./mcp.js";
import { validate } from "./validate.js";
import { keygen } from "./keygen.js";
import { verify } from "./verify.js";
import { rotate } from "./rotate.js";
import { revoke } from "./revoke.js";

export const commands = [
  create,
  build,
  check,
  validate,
  test,
  dev,
  send,
  tool,
  mcp,
  keygen,
  pack,
  verify,
  rotate,
  revoke,
] as unknown as CommandDef[];
