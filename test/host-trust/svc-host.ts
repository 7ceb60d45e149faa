/** The real `svc-host` executable as a child process, for the install tests. */
import { spawn } from "node:child_process";
import { HOST_MAIN } from "../host/harness.js";

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `svc-host <words>` with stdin a pipe (not a terminal), as a script would. */
export function svcHost(words: string[], home: string, env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOST_MAIN, ...words], {
      env: { PATH: process.env.PATH ?? "", SVC_HOME: home, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
