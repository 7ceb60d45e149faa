import chroma from "chroma-js";
export default () => ({
  scale: chroma.scale(["#fafa6e", "#2A4858"]).mode("lch").colors(4),
  mix: chroma.mix("red", "blue", 0.5, "lab").hex(),
  luminance: chroma("hotpink").luminance(),
  temperature: chroma.temperature(2700).hex(),
  contrast: chroma.contrast("pink", "hotpink"),
});
