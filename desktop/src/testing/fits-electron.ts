/**
 * Compile-time checks against Electron's own `electron.d.ts` (the `electron` package, pinned in
 * desktop/package.json; on Node older than 22.12, where npm skips it, the same file from the
 * pinned tarball: desktop/scripts/electron-types.mjs). Nothing here runs: `npm run check`
 * fails when a check does not hold, naming the member.
 *
 * - `main.ts` hands the real module to `startDesktop`: the real one fits `electron-api.ts`.
 * - That alone lets a method typed `void` here hide a promise Electron returns (a promise may
 *   stand where nothing is expected), which is how Electron 45's asynchronous clipboard went
 *   unseen: {@link PromisesKept} names every such member.
 * - The stand-in the behaviour tests use takes every argument the real module takes, and answers
 *   with a promise exactly where the real one does, for every method the shell calls
 *   ({@link StandInMisfits}): a test cannot pass on a call the real module would refuse.
 */
import type electron from "electron";
import type * as Api from "../electron-api.js";
import type { ElectronDouble, FakeBrowserWindow, FakeSession, FakeTray, FakeWebContents } from "./electron-double.js";

type Real = typeof electron;
type Method = (...args: any[]) => unknown;
/** Event methods are typed per event in Electron (dozens of overloads); the stand-in takes any. */
type EventMethod = "on" | "once" | "removeListener" | "emit";

/** Members typed as a plain value here where Electron returns a promise. */
type PromisesKept<Ours, Theirs> = {
  [K in keyof Ours & keyof Theirs]: Ours[K] extends Method
    ? Theirs[K] extends Method
      ? ReturnType<Theirs[K]> extends Promise<unknown>
        ? ReturnType<Ours[K]> extends Promise<unknown>
          ? never
          : K
        : never
      : never
    : never;
}[keyof Ours & keyof Theirs];

/** A promise where the real one returns a promise, and a plain value where it does not. */
type SameTiming<A extends Method, B extends Method> =
  ReturnType<A> extends Promise<unknown> ? (ReturnType<B> extends Promise<unknown> ? true : false) : true;

/**
 * Members the shell uses whose stand-in does not take every argument the real one takes, or
 * answers synchronously where the real one answers with a promise (or the other way round).
 * What a fake returns may be smaller than Electron's (a login item's two fields, not eight).
 */
type StandInMisfits<Ours, Double, Theirs> = {
  [K in keyof Ours & keyof Double & keyof Theirs]: K extends EventMethod
    ? never
    : Double[K] extends Method
      ? Theirs[K] extends Method
        ? Parameters<Theirs[K]> extends Parameters<Double[K]>
          ? SameTiming<Theirs[K], Double[K]> extends true
            ? SameTiming<Double[K], Theirs[K]> extends true
              ? never
              : K
            : K
          : K
        : K
      : never;
}[keyof Ours & keyof Double & keyof Theirs];

/** Each part of the shell's view beside Electron's and the stand-in's. */
interface Parts {
  app: [Api.App, Electron.App, ElectronDouble["app"]];
  window: [Api.BrowserWindow, Electron.BrowserWindow, FakeBrowserWindow];
  webContents: [Api.WebContents, Electron.WebContents, FakeWebContents];
  session: [Api.Session, Electron.Session, FakeSession];
  screen: [Api.ElectronScreen, Electron.Screen, ElectronDouble["screen"]];
  powerMonitor: [Api.PowerMonitor, Electron.PowerMonitor, ElectronDouble["powerMonitor"]];
  ipcMain: [Api.IpcMain, Electron.IpcMain, ElectronDouble["ipcMain"]];
  tray: [Api.Tray, Electron.Tray, FakeTray];
  globalShortcut: [Api.GlobalShortcut, Electron.GlobalShortcut, ElectronDouble["globalShortcut"]];
  shell: [Api.Shell, Electron.Shell, ElectronDouble["shell"]];
  clipboard: [Api.Clipboard, Electron.Clipboard, ElectronDouble["clipboard"]];
  utilityProcess: [Api.UtilityProcessStatic, typeof Electron.UtilityProcess, ElectronDouble["utilityProcess"]];
  hostProcess: [Api.UtilityProcess, Electron.UtilityProcess, ReturnType<ElectronDouble["utilityProcess"]["fork"]>];
}

/** `true` when every part keeps Electron's promises; otherwise the part and member names. */
type PromiseProblems = {
  [P in keyof Parts]: PromisesKept<Parts[P][0], Parts[P][1]> extends never
    ? never
    : `${P}.${PromisesKept<Parts[P][0], Parts[P][1]> & string}`;
}[keyof Parts];

type StandInProblems = {
  [P in keyof Parts]: StandInMisfits<Parts[P][0], Parts[P][2], Parts[P][1]> extends never
    ? never
    : `${P}.${StandInMisfits<Parts[P][0], Parts[P][2], Parts[P][1]> & string}`;
}[keyof Parts];

/** Fails to compile with the offending names when `T` is not `never`. */
type None<T extends never> = T;

export type ShellKeepsElectronsPromises = None<PromiseProblems>;
export type StandInFitsElectron = None<StandInProblems>;
