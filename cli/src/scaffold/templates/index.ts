/** Every `svckit new` template by name. */
import type { Template, TemplateName } from "../template.js";
import { deploys } from "./deploys.js";
import { errors } from "./errors.js";
import { payments } from "./payments.js";
import { tracker } from "./tracker.js";
import { traffic } from "./traffic.js";

export const TEMPLATES: Record<TemplateName, Template> = { tracker, payments, deploys, errors, traffic };
