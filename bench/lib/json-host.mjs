// svc-host started for a UI bench: JSON output on stdout, its bundled extensions from `bundled`,
// ready once a line holding `readyEvent` arrives. Returns the process and a `/v1` POST helper.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const HOST_MAIN = fileURLToPath(new URL("../../host/dist/main.js", import.meta.url));

export async function startJsonHost(root, bundled, readyEvent) {
  const child = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH,
      HOME: root,
      SVC_HOME: join(root, "support"),
      SVC_PORT: "0",
      SVC_BUNDLED_EXTENSIONS: bundled,
      SVC_HOST_OUTPUT: "json",
      SVC_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`svc-host exited with ${code}`)));
    child.stdout.on("data", (chunk) => chunk.includes(`"${readyEvent}"`) && resolve());
  });
  child.stdout.resume();
  const { port, token } = JSON.parse(readFileSync(join(root, "support", "webhook.json"), "utf8"));
  const v1 = (path, body) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { child, v1, port, token, ticketUrl: async () => (await (await v1("/v1/ui/tickets")).json()).url };
}
