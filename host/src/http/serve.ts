/**
 * Registers a `/v1` route from the one table (sdk's `V1_ROUTES`): its path and method come from
 * there, and every other method on that path is 405 with `Allow`. A router mounted under a prefix
 * (`/v1/extensions`) names the prefix, so the table's full path is still the one served.
 */
import { V1_ROUTES, type V1RouteName } from "@svc/api";
import type { Request, RequestHandler, Router } from "express";
import { HttpError } from "../support/http/index.js";

function methodNotAllowed(allowed: string) {
  return function methodNotAllowed(req: Request): never {
    throw new HttpError(
      405,
      `${req.method} is not allowed on ${req.baseUrl}${req.path === "/" && req.baseUrl ? "" : req.path}: use ${allowed}`,
      { Allow: allowed },
    );
  };
}

/**
 * @example
 * serve(router, "/v1/extensions", "enableExtension", handle(...)); // POST /v1/extensions/:id/enable
 */
export function serve(
  router: Pick<Router, "route">,
  mount: string,
  name: V1RouteName,
  ...handlers: RequestHandler[]
): void {
  const route = V1_ROUTES[name];
  if (!route.path.startsWith(mount)) throw new Error(`${name}: ${route.path} is not under ${mount}`);
  const path = route.path.slice(mount.length) || "/";
  const method = route.method.toLowerCase() as "get" | "post" | "put" | "delete";
  router
    .route(path)
    [method](...handlers)
    .all(methodNotAllowed(route.method));
}
