import { XMLParser, XMLBuilder, XMLValidator } from "fast-xml-parser";
export default () => {
  const xml =
    '<?xml version="1.0"?><rss><channel><title>News</title><item n="1"><title>A</title></item><item n="2"><title>B</title></item></channel></rss>';
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
  return {
    parsed,
    built: new XMLBuilder({ format: true }).build({ root: { a: [1, 2], b: "x" } }),
    invalid: XMLValidator.validate("<a><b></a>"),
  };
};
