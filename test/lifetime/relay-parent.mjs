// A parent for the lifetime tests: spawns `argv` with piped stdio, says its pid, relays the
// pipes both ways. Killing this process with -9 is "the parent died".
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
process.stdout.write(JSON.stringify({ relayedPid: child.pid }) + "\n");
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stderr.pipe(process.stderr);
