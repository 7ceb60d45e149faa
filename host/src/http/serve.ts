/**
 * The one way a `/v1` route is served: from the table (sdk's `V1_ROUTES`), which both sides
 * import. The route's path and method come from there, every other method on that path is 405
 * with `Allow`, and before the handler runs the body is read (only when the route declares one)
 * and checked against the route's body schema (`checkV1Body`): a body that does not fit is a 400
 * with the schema's own line, and `req.body` is the checked value. Handlers never check a shape
 * by hand. A router mounted under a prefix (`/v1/extensions`) names the prefix, so the table's
 * full path is still the one served.
 */
import { checkV1Body, v1BodyRule, V1_ROUTES, type V1Body, type V1RouteName } from "@svc/api";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import { HttpError, jsonBody } from "../support/http/index.js";

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
 * The JSON reader for route `name`'s body (an absent body allowed when its schema is optional);
 * undefined for a route without a body, whose body is never read.
 */
export function bodyReader(name: V1RouteName): RequestHandler | undefined {
  const rule = v1BodyRule(name);
  return rule === "none" ? undefined : jsonBody({ optional: rule === "optional" });
}

/**
 * Route `name`'s body checked against the table: the value to use.
 *
 * @throws HttpError 400 with the schema's own line when it does not fit.
 */
export function checkedBody<N extends V1RouteName>(name: N, body: unknown): V1Body<N> {
  const checked = checkV1Body(name, body);
  if (!checked.ok) throw new HttpError(400, checked.error);
  return checked.value;
}

/** Reads and checks the body before the handler: `req.body` is then the checked value. */
function routeBody(name: V1RouteName): RequestHandler[] {
  const reader = bodyReader(name);
  if (!reader) return [];
  const check = (req: Request, _res: Response, next: NextFunction): void => {
    try {
      req.body = checkedBody(name, req.body);
    } catch (error) {
      return next(error);
    }
    next();
  };
  return [reader, check];
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
    [method](...routeBody(name), ...handlers)
    .all(methodNotAllowed(route.method));
}
