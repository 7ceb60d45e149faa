import { create, all } from "mathjs";
const math = create(all, { randomSeed: "svc" });
export default () => ({
  evaluate: math.evaluate("sqrt(3^2 + 4^2) * 2 cm to mm").toString(),
  matrix: math.det([
    [1, 2],
    [3, 4],
  ]),
  fraction: math.format(math.fraction(1, 3).add(math.fraction(1, 6))),
  big: math.format(math.bignumber("0.1").plus("0.2")),
  random: math.random(),
  derivative: math.derivative("x^2 + sin(x)", "x").toString(),
  simplified: math.simplify("2x + 3x").toString(),
});
