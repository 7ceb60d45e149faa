/**
 * svc-host answers every `host.*` method the protocol declares (issue 32): the real host is
 * started with a stand-in runtime (fixtures/probe-runtime.mjs) that sends each method of
 * `HOST_REQUESTS`, and none is answered "unknown method". A method the protocol does not declare
 * is, which shows the probe can tell the two apart.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ErrorCodes, HOST_REQUESTS } from "@svc/runtime";
import { startHost, useHostWorld } from "./harness.js";

const scene = useHostWorld();
const PROBE = fileURLToPath(new URL("./fixtures/probe-runtime.mjs", import.meta.url));

type Answer = { result?: unknown; error?: { code: number; message: string } };

describe("svc-host's host.* services", () => {
  it("answer every method of HOST_REQUESTS (and only those)", async () => {
    const declared = Object.values(HOST_REQUESTS).map((type) => type.method);
    expect(declared).toHaveLength(13);
    scene.host = await startHost(scene.world, {
      SVC_RUNTIME: PROBE,
      SVC_PROBE_METHODS: JSON.stringify([...declared, "host.undeclared"]),
    });
    const line = await scene.host.waitFor(
      (e) => e.type === "log" && typeof e.message === "string" && e.message.startsWith("runtime: probe "),
    );
    const answers = JSON.parse(line.message.slice("runtime: probe ".length)) as Record<string, Answer>;

    const unknown = ([, answer]: [string, Answer]) => answer.error?.code === ErrorCodes.MethodNotFound;
    expect(Object.entries(answers).filter(unknown)).toEqual([
      ["host.undeclared", { error: { code: ErrorCodes.MethodNotFound, message: 'unknown method "host.undeclared"' } }],
    ]);
    expect(Object.keys(answers)).toEqual([...declared, "host.undeclared"]);
    // Answered by the host's own services: no working hours are set, and a notify needs a title.
    expect(answers["host.workingHours"]).toEqual({ result: null });
    expect(answers["host.notify"].error?.code).toBe(ErrorCodes.InvalidParams);
  });
});
