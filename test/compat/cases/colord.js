import { colord, extend } from "colord";
import namesPlugin from "colord/plugins/names";
import a11yPlugin from "colord/plugins/a11y";
extend([namesPlugin, a11yPlugin]);
export default () => ({
  hex: colord("hsl(120, 50%, 40%)").toHex(),
  darker: colord("#ff8800").darken(0.2).toRgbString(),
  name: colord("#ff0000").toName(),
  contrast: colord("#000").contrast("#fff"),
  mix: colord("tomato").alpha(0.5).toHslString(),
});
