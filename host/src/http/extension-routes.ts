/**
 * `/v1/extensions`: managing extensions over the local API (what `svc-host list`, `enable`,
 * `disable`, `uninstall`, `set` and `run` call while the app runs). Every operation is the
 * host's `ExtensionManager`; this file only maps HTTP onto it.
 *
 * | route | answer |
 * |---|---|
 * | `GET /v1/extensions` | 200 `{extensions: ExtensionInfo[]}` |
 * | `POST /v1/extensions/<id>/enable` · `/disable` · `/run` | 200 `{ok: true}` |
 * | `PUT /v1/extensions/<id>/options/<name>`, body `{value}` | 200 `{ok: true}` (`null` clears) |
 * | `DELETE /v1/extensions/<id>` | 200 the `UninstallReport` |
 * | `GET /v1/extensions/<id>/review` | 200 the `LedgerReview`: what accepting it as it is on disk would approve |
 * | `POST /v1/extensions/<id>/accept`, body `{reviewed}` | 200 `{ok: true}` once recorded (409 when it changed since the review) |
 */
import type { V1Body, V1RouteName } from "@svc/api";
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { ManageError, MANAGE_HTTP_STATUS, type ExtensionManager } from "../manage/types.js";
import { HttpError } from "../support/http/index.js";
import { serve } from "./serve.js";

/** Where `extensionRoutes` is mounted. */
export const EXTENSIONS_MOUNT = "/v1/extensions";

/** Runs one operation; a `ManageError` becomes its status and message. */
function handle(operation: (req: Request) => Promise<unknown>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    operation(req).then(
      (answer) => void res.status(200).json(answer ?? { ok: true }),
      (error: unknown) =>
        next(error instanceof ManageError ? new HttpError(MANAGE_HTTP_STATUS[error.code], error.message) : error),
    );
  };
}

const idOf = (req: Request): string => String(req.params.id);

/**
 * @example
 * app.use(EXTENSIONS_MOUNT, extensionRoutes(manager));
 */
export function extensionRoutes(manager: ExtensionManager): Router {
  const router = Router();
  const on = (name: V1RouteName, ...handlers: RequestHandler[]) => serve(router, EXTENSIONS_MOUNT, name, ...handlers);
  on(
    "listExtensions",
    handle(async () => ({ extensions: await manager.list() })),
  );
  for (const [name, verb] of [
    ["enableExtension", "enable"],
    ["disableExtension", "disable"],
    ["runExtension", "run"],
  ] as const)
    on(
      name,
      handle(async (req) => void (await manager[verb](idOf(req)))),
    );
  on(
    "setOption",
    handle(async (req) => {
      const { value, allowed } = req.body as V1Body<"setOption">;
      await manager.setOption(idOf(req), String(req.params.name), value, allowed);
    }),
  );
  on(
    "reviewExtension",
    handle((req) => manager.review(idOf(req))),
  );
  on(
    "acceptExtension",
    handle(async (req) => void (await manager.accept(idOf(req), (req.body as V1Body<"acceptExtension">).reviewed))),
  );
  on(
    "uninstallExtension",
    handle((req) => manager.uninstall(idOf(req))),
  );
  return router;
}
