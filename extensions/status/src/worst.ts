/** The states rows take here, and the blip's state as the worst of its rows. */
export type ItemState = "success" | "warning" | "failure";

const RANK: Record<ItemState, number> = { success: 0, warning: 1, failure: 2 };

/** @example worst(["success", "warning"]) // "warning" */
export function worst(states: readonly ItemState[]): ItemState {
  return states.reduce<ItemState>((a, b) => (RANK[b] > RANK[a] ? b : a), "success");
}
