/** The control channel: pause, resume, run, advance a manual clock, stop — one JSON command per line. */
export * from "./control-channel.js";
