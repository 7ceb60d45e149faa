/**
 * The `/v1` table's checks, as both sides use them: `checkV1Body` gives the server the value to
 * use or the schema's own line for the person; `checkV1Answer` tells the client an answer is not
 * the route's, naming it. (The server and the client apply them over real HTTP in
 * test/host-http/route-table.test.ts and runtime/src/app-client.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkV1Answer, checkV1Body, v1BodyRule, V1_ROUTES } from "./v1-routes.js";

const SET_OPTION =
  'the body should be {"value": <the new value, or null to clear it>} (a server address also "allowed": <the origin the person allowed>)';

describe("checkV1Body", () => {
  it("gives back the value to use", () => {
    expect(checkV1Body("setOption", { value: null })).toEqual({ ok: true, value: { value: null } });
    expect(checkV1Body("endBlip", undefined)).toEqual({ ok: true, value: undefined });
    expect(checkV1Body("endBlip", { dismissAfter: 0 })).toEqual({ ok: true, value: { dismissAfter: 0 } });
    expect(checkV1Body("health", "anything")).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ["setOption", {}, SET_OPTION],
    ["setOption", { value: 1, allowed: 5 }, SET_OPTION],
    ["setOption", "text", SET_OPTION],
    [
      "acceptExtension",
      { reviewed: 1 },
      'the body should be {"reviewed": "<the reviewed value GET …/review answered>"}',
    ],
    ["setToolAgents", { enabled: true, extra: 1 }, 'the body should be {"enabled": true} or {"enabled": false}'],
    ["giveFiles", { path: "/a", more: 1 }, 'the body should be {"path": "<absolute path of the file>"}'],
    ["endBlip", { dismissAfter: -1 }, 'invalid end: "dismissAfter" should be a number of seconds, 0 or more'],
    ["endBlip", null, 'invalid end: the body should be an object like {"state": "success", "dismissAfter": 30}'],
  ] as const)("%s refuses %j with its line", (name, body, error) => {
    expect(checkV1Body(name, body)).toEqual({ ok: false, error });
  });

  it("names the route and the place for a check that carries no line of its own", () => {
    const routes = V1_ROUTES as unknown as Record<string, { body?: z.ZodType }>;
    const saved = routes.acceptExtension.body;
    routes.acceptExtension.body = z.object({ reviewed: z.string() });
    try {
      expect(checkV1Body("acceptExtension", { reviewed: 1 })).toEqual({
        ok: false,
        error: "the body does not fit POST /v1/extensions/:id/accept at reviewed (invalid_type: expected string)",
      });
    } finally {
      routes.acceptExtension.body = saved;
    }
  });

  it("reads a body only where the route declares one, and lets it be absent where the schema is optional", () => {
    expect([v1BodyRule("health"), v1BodyRule("endBlip"), v1BodyRule("runTool"), v1BodyRule("pushBlips")]).toEqual([
      "none",
      "optional",
      "optional",
      "required",
    ]);
  });
});

describe("checkV1Answer", () => {
  it("takes the route's answer and an error answer", () => {
    expect(checkV1Answer("health", 200, { ok: true, version: "1.0.0" })).toBeUndefined();
    expect(checkV1Answer("health", 401, { error: "no token" })).toBeUndefined();
  });

  it("names the route, the status and the place that does not fit", () => {
    expect(checkV1Answer("health", 200, { ok: true })).toEqual({
      route: "health",
      status: 200,
      message:
        "GET /v1/health (health) answered 200 with a body that is not the route's answer at version: Invalid input: expected string, received undefined. Are svc and this program the same version?",
    });
  });

  it("leaves a relayed answer and a stream alone", () => {
    expect(checkV1Answer("hook", 418, "the extension's own")).toBeUndefined();
    expect(checkV1Answer("logs", 200, undefined)).toBeUndefined();
  });
});
