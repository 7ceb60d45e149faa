/** Every svckit command, in the order `svckit --help` lists them. */
import type { CommandDef } from "../command.js";
import { send } from "./send.js";

export const commands: CommandDef[] = [send as CommandDef];
