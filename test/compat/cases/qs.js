import qs from "qs";
export default () => ({
  parsed: qs.parse("a[b][c]=1&list[]=x&list[]=y&flag&n=%E2%9C%93"),
  built: qs.stringify({ a: { b: [1, 2] }, s: "x y&z" }, { arrayFormat: "brackets" }),
  dots: qs.parse("a.b=c", { allowDots: true }),
});
