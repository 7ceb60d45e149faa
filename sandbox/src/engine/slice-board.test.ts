import { describe, expect, it } from "vitest";
import { SLICE_BOARD_BYTES, SliceBoard } from "./slice-board.js";

describe("SliceBoard", () => {
  it("calls onSwitch before a slice of another sandbox than the last, never between slices of the same one", () => {
    const board = new SliceBoard(new SharedArrayBuffer(SLICE_BOARD_BYTES));
    const switches: number[] = [];
    board.onSwitch = () => switches.push(board.read().slot);
    for (const slot of [3, 3, 4, 4, 3]) {
      board.begin(slot, 100, 0);
      board.end();
    }
    // The board still shows the last sandbox when the hook runs (3 → 4, 4 → 3; the first from 0).
    expect(switches).toEqual([0, 3, 4]);
  });
});
