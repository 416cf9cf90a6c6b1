// The Roll20 bridge's logic: Seize's turn order into Roll20's campaign, and the GM's "next" in
// Roll20 back to Seize. ``campaign`` is Roll20's Campaign model (get, save); tests pass a
// stand-in. Roll20 keeps the turn order as a JSON string. Every GM tab may run the bridge, but
// one alone writes (an election kept in the campaign), and Mod scripts that share the turn
// order (TurnMarker, GroupInitiative) keep their entries, which never count as a Next.

import { nextCommand } from "../foundry/scripts/engine.mjs";
import { Queue } from "../foundry/scripts/sync.mjs";

/**
 * @typedef {{get(key: string): unknown, save(changes: Record<string, unknown>): unknown}} Campaign
 * @typedef {{id: string, pr: string, custom: string, _pageid: string}} Entry
 * @typedef {{table: string, token: string}} Linked
 * @typedef {Pick<Storage, "getItem" | "setItem">} Store
 */

/**
 * What identifies an entry of Roll20's turn order: its token's id, or for a custom entry (id
 * "-1") its text. Entries are compared by this, never by their JSON text, which Roll20 and Mod
 * scripts may write back in another form.
 * @param {Partial<Entry> | null | undefined} entry
 */
export function entryKey(entry) {
  const id = String(entry?.id ?? "-1");
  return id === "-1" ? `-1:${entry?.custom ?? ""}` : id;
}

/**
 * Whether ``after`` is ``before`` advanced by one: its first entry moved to the end.
 * @param {Partial<Entry>[]} before
 * @param {Partial<Entry>[]} after
 */
export function isAdvance(before, after) {
  if (before.length < 2 || before.length !== after.length) return false;
  const rotated = [...before.slice(1), before[0]].map(entryKey);
  return after.every((entry, n) => entryKey(entry) === rotated[n]);
}

/** @param {unknown} text Roll20's turn order, a JSON string (or empty) @returns {Entry[]} */
export function parseOrder(text) {
  try {
    const entries = JSON.parse(typeof text === "string" && text ? text : "[]");
    return Array.isArray(entries) ? entries : [];
  } catch {
    return [];
  }
}

/**
 * The Idempotency-Key of the "next" for an advance: the same for every tab that saw the same
 * table (its sequence) and the same order, so a second send is answered as a retry.
 * @param {string} table
 * @param {number} seq
 * @param {Partial<Entry>[]} order
 */
export function advanceKey(table, seq, order) {
  let hash = 0x811c9dc5; // FNV-1a over the order's keys
  for (const char of order.map(entryKey).join("\n")) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `roll20-next:${table.slice(0, 100)}:${seq}:${hash.toString(16)}`;
}

/** Where the campaign keeps which GM tab's bridge writes: one tab, its lease renewed. */
export const LOCK = "seizebridge";

/**
 * One bridge per campaign, whatever the number of GM tabs: a lock kept in the campaign, with a
 * lease each holder renews (``tick``, every ``ttl / 3``), so a closed tab hands over once its
 * lease runs out.
 */
export class Election {
  /**
   * @param {object} options
   * @param {Campaign} options.campaign
   * @param {string} options.tab this tab's own id
   * @param {() => number} [options.now]
   * @param {number} [options.ttl] how long a lease lasts, in ms
   */
  constructor({ campaign, tab, now = () => Date.now(), ttl = 15000 }) {
    this.campaign = campaign;
    this.tab = tab;
    this.now = now;
    this.ttl = ttl;
  }

  /** @returns {{tab?: unknown, until?: unknown} | null} */
  #lock() {
    try {
      return JSON.parse(String(this.campaign.get(LOCK) || "null"));
    } catch {
      return null;
    }
  }

  /** Whether this tab holds the lock now. */
  leads() {
    const lock = this.#lock();
    return lock?.tab === this.tab && Number(lock.until) > this.now();
  }

  /** Take the lock if it is free or its holder's lease ran out; renew it if it is ours. */
  tick() {
    const lock = this.#lock();
    const free = !lock || lock.tab === this.tab || !(Number(lock.until) > this.now());
    if (free) this.campaign.save({ [LOCK]: JSON.stringify({ tab: this.tab, until: this.now() + this.ttl }) });
    return this.leads();
  }

  /** Let go on leaving, so another tab takes over at its next tick. */
  release() {
    if (this.#lock()?.tab === this.tab) this.campaign.save({ [LOCK]: "" });
  }
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
   * @param {(command: Record<string, unknown>, key: string) => Promise<unknown>} options.send
   *   with its Idempotency-Key
   * @param {() => import("../foundry/scripts/controls.mjs").View | null} options.view
   * @param {string} [options.table] the table's id, for the Idempotency-Key
   * @param {() => number} [options.seq] the table's last sequence this tab saw
   * @param {{leads(): boolean}} [options.election] whether this tab is the one that writes
   */
  constructor({ campaign, turnorder, send, view, table = "", seq = () => 0,
                election = { leads: () => true } }) {
    this.campaign = campaign;
    this.turnorder = turnorder;
    this.send = send;
    this.view = view;
    this.table = table;
    this.seq = seq;
    this.election = election;
    /** Seize's entries as last written, to tell them from Mod scripts' and the GM's changes. */
    /** @type {Entry[] | null} */
    this.written = null;
    /** The whole order as last written. @type {string[]} */
    this.writtenKeys = [];
    /** Each write waits for the last, so an older order never lands after a newer one. */
    this.queue = new Queue();
  }

  /** Write Seize's turn order into the campaign (what it writes it will not answer to). */
  refresh() {
    if (!this.election.leads()) return Promise.resolve();
    return this.queue.run(() => this.#write());
  }

  /**
   * Roll20's turn order changed: the GM's "next" goes to Seize; anything else is put back.
   * Only Seize's own entries count: a Mod script's (TurnMarker's marker, GroupInitiative's
   * rolls) are left where they are, and moving one of them is never a Next.
   */
  changed() {
    if (!this.election.leads() || this.written === null) return Promise.resolve();
    const now = parseOrder(this.campaign.get("turnorder"));
    const keys = now.map(entryKey);
    if (keys.length === this.writtenKeys.length && keys.every((k, n) => k === this.writtenKeys[n])) {
      return Promise.resolve(); // our own write, perhaps written back in another form
    }
    return this.queue.run(async () => {
      const before = this.written ?? [];
      const mine = new Set(before.map(entryKey));
      const after = now.filter((entry) => mine.has(entryKey(entry)));
      const view = this.view();
      const command = view && isAdvance(before, after) ? nextCommand(view) : null;
      if (command) await this.send(command, advanceKey(this.table, this.seq(), before));
      await this.#write();
    });
  }

  async #write() {
    const entries = await this.turnorder();
    const mine = new Set([...(this.written ?? []), ...entries].map(entryKey));
    // Mod scripts' entries stay, after Seize's, in the order they are in.
    const theirs = parseOrder(this.campaign.get("turnorder"))
      .filter((entry) => !mine.has(entryKey(entry)));
    const order = [...entries, ...theirs];
    this.written = entries;
    this.writtenKeys = order.map(entryKey);
    if (this.campaign.get("turnorder") !== JSON.stringify(order)) {
      this.campaign.save({ turnorder: JSON.stringify(order) });
    }
    // Players see the turn order only while its window is open: open it once there is one.
    if (entries.length && !this.campaign.get("initiativepage")) {
      this.campaign.save({ initiativepage: true });
    }
  }
}
