/**
 * Which buttons are pressed: from the click until the host answers (SPEC `extension.action`).
 * A press is named by blip, item (for a list row) and action.
 */
export interface Press {
  blipId: string;
  actionId: string;
  itemId?: string;
}

/** One key per button, so the same action on two rows is two buttons. */
export function pressKey(press: Press): string {
  return JSON.stringify([press.blipId, press.itemId ?? null, press.actionId]);
}

export class PressedButtons {
  private readonly pressed = new Set<string>();

  /** False when that button is pressed already (a second click waits for the first answer). */
  press(press: Press): boolean {
    const key = pressKey(press);
    if (this.pressed.has(key)) return false;
    this.pressed.add(key);
    return true;
  }

  release(press: Press): void {
    this.pressed.delete(pressKey(press));
  }

  isPressed(press: Press): boolean {
    return this.pressed.has(pressKey(press));
  }

  /** Any button of this blip pressed (the blip reads as busy). */
  anyOn(blipId: string): boolean {
    for (const key of this.pressed) if ((JSON.parse(key) as string[])[0] === blipId) return true;
    return false;
  }
}
