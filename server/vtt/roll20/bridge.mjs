// The Roll20 bridge's logic: Seize's turn order into Roll20's campaign, and the GM's "next" in
// Roll20 back to Seize. ``campaign`` is Roll20's Campaign model (get, save); tests pass a
// stand-in. Roll20 keeps the turn order as a JSON string.

import { nextCommand } from "../foundry/scripts/engine.mjs";
import { Queue } from "../foundry/scripts/sync.mjs";

/**
 * @typedef {{get(key: string): unknown, save(changes: Record<string, unknown>): unknown}} Campaign
 * @typedef {{id: string, pr: string, custom: string, _pageid: string}} Entry
 * @typedef {{table: string, token: string}} Linked
 * @typedef {Pick<Storage, "getItem" | "setItem">} Store
 */

/**
 * Whether ``after`` is ``before`` advanced by one: its first entry moved to the end.
 * @param {unknown[]} before
 * @param {unknown[]} after
 */
export function isAdvance(before, after) {
  if (before.length < 2 || before.length !== after.length) return false;
  const rotated = [...before.slice(1), before[0]];
  return JSON.stringify(rotated) === JSON.stringify(after);
}

/**
 * Where a Roll20 game's link to a Seize table is kept: one key per campaign, so a GM's other
 * games are never written to with this one's table.
 * @param {string} campaign Roll20's campaign id
 */
export function linkKey(campaign) {
  return `seize:campaign:${campaign}`;
}

/**
 * The Seize table a Roll20 game is linked to: null when it is not, or when the GM declined to
 * link it (stored as ``{}`` so that they are not asked again).
 * @param {Store} storage
 * @param {string} campaign
 * @returns {Linked | null}
 */
export function linkedTable(storage, campaign) {
  try {
    const linked = JSON.parse(storage.getItem(linkKey(campaign)) ?? "null");
    return linked?.table && linked?.token ? { table: linked.table, token: linked.token } : null;
  } catch {
    return null;
  }
}

/**
 * Remember the GM's answer for this game: a table and token, or no link at all.
 * @param {Store} storage
 * @param {string} campaign
 * @param {Linked | null} linked
 */
export function rememberLink(storage, campaign, linked) {
  storage.setItem(linkKey(campaign), JSON.stringify(linked ?? {}));
}

/**
 * Whether the bridge may ask to link this game: only a GM in a game with a campaign id who has
 * not answered for it yet.
 * @param {Store} storage
 * @param {{campaign: unknown, isGm: unknown}} page
 */
export function mayAsk(storage, { campaign, isGm }) {
  return isGm === true && typeof campaign === "string" && campaign !== ""
    && storage.getItem(linkKey(campaign)) === null;
}

export class Bridge {
  /**
   * @param {object} options
   * @param {Campaign} options.campaign
   * @param {() => Promise<Entry[]>} options.turnorder Seize's turn order, fetched
   * @param {(command: Record<string, unknown>) => Promise<unknown>} options.send
   * @param {() => import("../foundry/scripts/controls.mjs").View | null} options.view
   */
  constructor({ campaign, turnorder, send, view }) {
    this.campaign = campaign;
    this.turnorder = turnorder;
    this.send = send;
    this.view = view;
    /** The turn order as last written, to tell our own writes from the GM's. */
    /** @type {string | null} */
    this.written = null;
    /** Each write waits for the last, so an older order never lands after a newer one. */
    this.queue = new Queue();
  }

  /** Write Seize's turn order into the campaign (what it writes it will not answer to). */
  refresh() {
    return this.queue.run(() => this.#write());
  }

  /** Roll20's turn order changed: the GM's "next" goes to Seize; anything else is put back. */
  changed() {
    const now = this.campaign.get("turnorder");
    const before = this.written;
    if (before === null || now === before) return Promise.resolve(); // our own write
    return this.queue.run(async () => {
      const view = this.view();
      const after = JSON.parse(typeof now === "string" && now ? now : "[]");
      const command = view && isAdvance(JSON.parse(before), after) ? nextCommand(view) : null;
      if (command) await this.send(command);
      await this.#write();
    });
  }

  async #write() {
    const entries = await this.turnorder();
    this.written = JSON.stringify(entries);
    if (this.campaign.get("turnorder") !== this.written) {
      this.campaign.save({ turnorder: this.written });
    }
    // Players see the turn order only while its window is open: open it once there is one.
    if (entries.length && !this.campaign.get("initiativepage")) {
      this.campaign.save({ initiativepage: true });
    }
  }
}
