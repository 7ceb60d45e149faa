import { describe, expect, it } from "vitest";
import { extensionIdSchema } from "@svc/api";
import { planExtension, titleOf } from "./scaffold.js";
import { TEMPLATE_NAMES } from "./template.js";
import { TEMPLATES } from "./templates/index.js";

describe("planExtension", () => {
  it("defaults to the tracker template and com.example.<name>", () => {
    const plan = planExtension("my-deploys");
    expect(plan).toMatchObject({ name: "my-deploys", id: "com.example.my-deploys", title: "My Deploys" });
    expect(plan.template.name).toBe("tracker");
  });

  it("makes a default id the manifest schema accepts, whatever the name's punctuation", () => {
    for (const name of ["a", "my_ext", "x.y.z", "1st-thing"]) {
      expect(extensionIdSchema.safeParse(planExtension(name).id).success).toBe(true);
    }
  });

  it("refuses bad names, templates and ids as usage errors", () => {
    expect(() => planExtension("My Ext")).toThrow(/"My Ext" cannot be an extension name/);
    expect(() => planExtension("x", "weather")).toThrow(
      'unknown template "weather": choose one of tracker, payments, deploys, errors, traffic.',
    );
    expect(() => planExtension("x", "tracker", "nodots")).toThrow(
      '--id "nodots" is not a reverse-DNS id like "com.yourname.x".',
    );
  });

  it("has one template per name, each with its own source", () => {
    expect(Object.keys(TEMPLATES).sort()).toEqual([...TEMPLATE_NAMES].sort());
    const sources = new Set(TEMPLATE_NAMES.map((name) => TEMPLATES[name].source));
    expect(sources.size).toBe(TEMPLATE_NAMES.length);
  });
});

describe("titleOf", () => {
  it("capitalizes the words of a name", () => {
    expect(titleOf("my-deploys")).toBe("My Deploys");
    expect(titleOf("stripe_mrr.v2")).toBe("Stripe Mrr V2");
  });
});
