import YAML from "yaml";
export default () => {
  const doc = YAML.parse(
    "name: svc\nlist:\n  - 1\n  - two\nnested: { a: true, when: 2024-01-01 }\nanchors:\n  base: &b { x: 1 }\n  copy: *b\n",
  );
  return {
    doc,
    back: YAML.stringify({ a: [1, { b: "c d" }], e: null, multi: "line1\nline2" }),
    errors: YAML.parseDocument("a: [1,").errors.map((e) => e.code),
  };
};
