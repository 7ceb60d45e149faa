import sax from "sax";
export default () => {
  const parser = sax.parser(true);
  const events = [];
  parser.onopentag = (node) => events.push(["open", node.name, node.attributes]);
  parser.ontext = (text) => text.trim() && events.push(["text", text]);
  parser.onclosetag = (name) => events.push(["close", name]);
  parser.write('<feed version="2"><item id="1">A &amp; B</item><item id="2"/></feed>').close();
  return events;
};
