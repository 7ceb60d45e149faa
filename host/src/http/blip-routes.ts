/**
 * The blip routes: `POST /v1/blips` (push), `POST /v1/blips/<id>/end` and
 * `DELETE /v1/blips/<id>`. The id may contain `/` (`webhook/deploy`) or be percent-encoded
 * (`webhook%2Fdeploy`), and is taken with or without the `webhook/` prefix.
 */
import type { NextFunction, Request, Response } from "express";
import { idCandidates } from "../store/blip-id.js";
import type { BlipStore } from "../store/blip-store.js";
import { HttpError, sendError } from "../support/http/index.js";
import { preparePush } from "./push-payloads.js";
import { checkedBody } from "./serve.js";

/**
 * `POST /v1/blips`: 200 `{"ok": true, "blips": [{"id", "seq"}, …]}` in request order. An id in a
 * known extension's namespace is 400 (`isExtension`, the host's catalog). A request that would
 * hold more than `LIMITS.pushedBlips` live pushed blips is 409, and stores nothing.
 */
export function pushBlips(
  store: BlipStore,
  isExtension: (id: string) => boolean,
  log: (level: "warn", message: string) => void,
) {
  return function pushBlips(req: Request, res: Response): void {
    const prepared = preparePush(req.body, (id) => store.get(id), undefined, isExtension);
    if (!prepared.ok) return sendError(res, 400, prepared.error);
    const full = store.capRefusal(
      prepared.items.map((item) => item.payload.id),
      { kind: "webhook" },
    );
    if (full) {
      log("warn", `pushed blips not stored: ${full}`);
      return sendError(res, 409, `too many blips: ${full}`);
    }
    const results = store.push(prepared.items);
    res.status(200).json({ ok: true, blips: results.map(({ id, seq }) => ({ id, seq })) });
  };
}

/** The id in `/v1/blips/<id>` or `/v1/blips/<id>/end`, decoded; undefined when the path is neither. */
export function blipIdFromPath(path: string, suffix: "" | "/end"): string | undefined {
  if (!path.startsWith("/") || (suffix && !path.endsWith(suffix))) return undefined;
  const encoded = path.slice(1, path.length - suffix.length);
  if (!encoded) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new HttpError(400, `the blip id in ${JSON.stringify(path.slice(0, 200))} is not valid percent-encoding`);
  }
}

function findPushed(store: BlipStore, id: string): string {
  const found = idCandidates(id).find((candidate) => store.getPushed(candidate));
  if (!found) throw new HttpError(404, `no pushed blip ${JSON.stringify(id)}`);
  return found;
}

/**
 * Everything under `/v1/blips/`: `POST …/<id>/end` → 200 `{"ok": true, "id", "seq"}`;
 * `DELETE …/<id>` → 200 `{"ok": true, "id"}`; an unknown id 404; another method 405. Not
 * express routes (an id may hold `/`), but the table's routes all the same: `endBlip`'s body is
 * read (app.ts, `bodyReader`) and checked (`checkedBody`) as `serve` does for every other route.
 */
export function blipIdRoutes(store: BlipStore) {
  return function blipIdRoutes(req: Request, res: Response, next: NextFunction): void {
    const endId = blipIdFromPath(req.path, "/end");
    if (endId !== undefined && req.method === "POST") {
      const options = checkedBody("endBlip", req.body) ?? {};
      const ended = store.endPushed(findPushed(store, endId), options);
      if (!ended) throw new HttpError(404, `no pushed blip ${JSON.stringify(endId)}`);
      res.status(200).json({ ok: true, id: ended.id, seq: ended.seq });
      return;
    }
    const id = blipIdFromPath(req.path, "");
    if (id !== undefined && req.method === "DELETE") {
      const found = findPushed(store, id);
      store.removeBlip(found);
      res.status(200).json({ ok: true, id: found });
      return;
    }
    if (endId !== undefined)
      throw new HttpError(405, `${req.method} is not allowed here: use POST /v1/blips/<id>/end`, { Allow: "POST" });
    if (id !== undefined)
      throw new HttpError(405, `${req.method} is not allowed here: use DELETE /v1/blips/<id>`, { Allow: "DELETE" });
    next();
  };
}
