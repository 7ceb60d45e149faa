import { groupBy, debounce, chunk, merge, sortBy, template, camelCase, get, uniqBy } from "lodash-es";
export default () => ({
  grouped: groupBy([6.1, 4.2, 6.3], Math.floor),
  chunk: chunk([1, 2, 3, 4, 5], 2),
  merged: merge({ a: [{ b: 2 }, { d: 4 }] }, { a: [{ c: 3 }, { e: 5 }] }),
  sorted: sortBy(
    [
      { n: "b", a: 2 },
      { n: "a", a: 2 },
      { n: "c", a: 1 },
    ],
    ["a", "n"],
  ),
  template: template("hello <%= user %>!")({ user: "svc" }),
  camel: camelCase("Foo Bar-baz"),
  get: get({ a: [{ b: { c: 3 } }] }, "a[0].b.c"),
  uniq: uniqBy([2.1, 1.2, 2.3], Math.floor),
  debounce: typeof debounce(() => 1, 10),
});
