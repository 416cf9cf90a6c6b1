// The Roll20 bridge's logic: Seize's turn order into Roll20's campaign, and the GM's "next" in
// Roll20 back to Seize. ``campaign`` is Roll20's Campaign model (get, save, on); tests pass a
// stand-in. Roll20 keeps the turn order as a JSON string.

import { nextCommand } from "../foundry/scripts/engine.mjs";

/** Whether ``after`` is ``before`` advanced by one: its first entry moved to the end. */
export function isAdvance(before, after) {
  if (before.length < 2 || before.length !== after.length) return false;
  const rotated = [...before.slice(1), before[0]];
  return JSON.stringify(rotated) === JSON.stringify(after);
}

export class Bridge {
  constructor({ campaign, turnorder, send, view }) {
    Object.assign(this, { campaign, turnorder, send, view });
    this.written = null;
  }

  /** Write Seize's turn order into the campaign (what it writes it will not answer to). */
  async refresh() {
    const entries = await this.turnorder();
    this.written = JSON.stringify(entries);
    if (this.campaign.get("turnorder") !== this.written) {
      this.campaign.save({ turnorder: this.written });
    }
  }

  /** Roll20's turn order changed: the GM's "next" goes to Seize; anything else is put back. */
  async changed() {
    const now = this.campaign.get("turnorder");
    if (this.written === null || now === this.written) return; // our own write
    const before = JSON.parse(this.written);
    const after = JSON.parse(now || "[]");
    const view = this.view();
    const command = view && isAdvance(before, after) ? nextCommand(view) : null;
    if (command) await this.send(command);
    await this.refresh();
  }
}
