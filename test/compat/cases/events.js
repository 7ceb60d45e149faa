import { EventEmitter } from "events";
export default () => {
  const emitter = new EventEmitter();
  const seen = [];
  emitter.on("data", (x) => seen.push(["on", x]));
  emitter.once("data", (x) => seen.push(["once", x]));
  emitter.emit("data", 1);
  emitter.emit("data", 2);
  return { seen, count: emitter.listenerCount("data"), names: emitter.eventNames() };
};
