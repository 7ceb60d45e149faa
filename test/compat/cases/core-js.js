import "core-js/stable";
export default async () => ({
  // core-js checks every built-in on load and replaces what it finds wrong: it must load, and
  // what it gives must equal Node's
  sorted: [3, 1, 2].toSorted(),
  grouped: Object.groupBy([1, 2, 3, 4], (n) => (n % 2 ? "odd" : "even")),
  fromAsync: await Array.fromAsync([1, Promise.resolve(2)]),
  set: [...new Set([1, 2, 3]).union(new Set([3, 4]))],
  at: "abc".at(-1),
  hasOwn: Object.hasOwn({ a: 1 }, "a"),
  iterator: Iterator.from([1, 2, 3])
    .map((n) => n * 2)
    .toArray(),
  date: new Date(2024, 2, 10, 3, 30).getHours(),
  regexp: new RegExp("[\\p{L}--[a-z]]", "v").test("É"),
});
