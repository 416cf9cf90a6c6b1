// The Roll20 bridge's logic: Seize's turn order into Roll20's campaign, and the GM's "next" in
// Roll20 back to Seize. ``campaign`` is Roll20's Campaign model (get, save); tests pass a
// stand-in. Roll20 keeps the turn order as a JSON string. Every GM tab may run the bridge, but
// one alone writes (an election kept in the campaign), and Mod scripts that share the turn
// order (TurnMarker1, GroupInitiative) keep their entries, which never count as a Next; nor
// does their re-sorting or skipping of Seize's own entries, nor the GM's drag: only Roll20's
// Next, told by who is current and by the key Seize writes in each entry.

import { nextCommand } from "../foundry/scripts/engine.mjs";
import { Queue } from "../foundry/scripts/sync.mjs";

/**
 * @typedef {{get(key: string): unknown, save(changes: Record<string, unknown>): unknown}} Campaign
 * @typedef {{id: string, pr: string, custom: string, _pageid: string, seize?: string}} Entry
 * @typedef {{table: string, token: string}} Linked
 * @typedef {Pick<Storage, "getItem" | "setItem">} Store
 */

/** The turn a Seize entry is (the key Seize wrote in it), or "" for anyone else's entry. */
const tagOf = (/** @type {Partial<Entry> | null | undefined} */ entry) =>
  typeof entry?.seize === "string" ? entry.seize : "";

/**
 * What identifies an entry of Roll20's turn order, for the Idempotency-Key: the key Seize wrote
 * in it, else its token's id, else (a custom entry, id "-1") its text.
 * @param {Partial<Entry> | null | undefined} entry
 */
export function entryKey(entry) {
  const id = String(entry?.id ?? "-1");
  return tagOf(entry) ? `seize:${tagOf(entry)}` : id === "-1" ? `-1:${entry?.custom ?? ""}` : id;
}

/**
 * Whether two entries show the same: one token, or custom entries of one text and value.
 * @param {Partial<Entry>} a
 * @param {Partial<Entry>} b
 */
function sameFace(a, b) {
  const id = String(a.id ?? "-1");
  if (id !== String(b.id ?? "-1")) return false;
  const text = (/** @type {Partial<Entry>} */ entry) => `${entry.custom ?? ""}\n${entry.pr ?? ""}`;
  return id !== "-1" || text(a) === text(b);
}

/**
 * Which of Seize's entries (``mine``) each entry of Roll20's turn order is: its index there, or
 * -1 for the GM's or a Mod script's own. Entries are known by the key Seize writes in each
 * (``seize``), never by their name or place, so two Goblins are two entries; should a client
 * drop that field, by their token, or their text and value. Each of Seize's entries is found
 * once at most, and an entry is never compared by its JSON, which Roll20 and Mod scripts may
 * write back in another form.
 * @param {Partial<Entry>[]} mine
 * @param {Partial<Entry>[]} order
 */
export function identify(mine, order) {
  const found = order.map(() => -1);
  const taken = new Set();
  const tags = new Map(mine.map((entry, n) => [tagOf(entry), n]));
  order.forEach((entry, at) => {
    const n = tagOf(entry) ? tags.get(tagOf(entry)) : undefined;
    if (n === undefined || taken.has(n)) return;
    found[at] = n;
    taken.add(n);
  });
  order.forEach((entry, at) => {
    if (found[at] !== -1 || tagOf(entry)) return;
    const n = mine.findIndex((candidate, k) => !taken.has(k) && sameFace(candidate, entry));
    if (n === -1) return;
    found[at] = n;
    taken.add(n);
  });
  return found;
}

/**
 * What a change of Roll20's turn order is to Seize, given Seize's entries as it wrote them (its
 * current actor first). "next" is the GM's advance, told by who is current: Roll20's current
 * entry is now the one after Seize's current, Seize's current went to the very end, and the
 * rest of Seize's entries kept their order. "moved" is anything else that changed Seize's
 * entries (a drag, a script's sort, skip or reroll, an entry removed), to be put back. "" is
 * a change to other entries only.
 *
 * A sort cannot pass for an advance: GroupInitiative's sorts compare ``pr`` as numbers, and
 * Seize writes none (server/vtt/dialects.py), so they leave Seize's entries in their order; with
 * its ``preserveFirst`` the current entry stays current.
 * @param {Partial<Entry>[]} mine
 * @param {Partial<Entry>[]} order
 * @returns {"next" | "moved" | ""}
 */
export function judge(mine, order) {
  const found = identify(mine, order);
  const ours = found.filter((n) => n !== -1);
  // An entry that lost its key and its value was written anew by someone else (a reroll).
  const rewritten = order.some((entry, at) => found[at] !== -1 && !tagOf(entry)
    && String(entry.pr ?? "") !== String(mine[found[at]].pr ?? ""));
  if (ours.length !== mine.length || rewritten) return "moved";
  const advanced = mine.length >= 2 && found[0] === 1 && found.at(-1) === 0
    && ours.every((n, k) => n === (k + 1) % mine.length);
  if (advanced) return "next";
  return ours.every((n, k) => n === k) ? "" : "moved";
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
   * @param {(message: string) => void} [options.tell] a word to the GM
   */
  constructor({ campaign, turnorder, send, view, table = "", seq = () => 0,
                election = { leads: () => true }, tell = () => {} }) {
    this.campaign = campaign;
    this.turnorder = turnorder;
    this.send = send;
    this.view = view;
    this.table = table;
    this.seq = seq;
    this.election = election;
    this.tell = tell;
    /** Seize's entries as last written, to tell them from Mod scripts' and the GM's changes. */
    /** @type {Entry[] | null} */
    this.written = null;
    /** The whole order as last written. @type {Entry[]} */
    this.order = [];
    /** The last order put back, to stop when a script writes the same again. */
    this.undone = "";
    /** Each write waits for the last, so an older order never lands after a newer one. */
    this.queue = new Queue();
  }

  /** Write Seize's turn order into the campaign (what it writes it will not answer to). */
  refresh() {
    if (!this.election.leads()) return Promise.resolve();
    return this.queue.run(() => this.#write());
  }

  /**
   * Roll20's turn order changed: the GM's "next" goes to Seize; a change to Seize's entries
   * that is not one (a drag, a Mod script's sort or skip) is put back and the GM told. Other
   * entries (TurnMarker's marker, GroupInitiative's rolls) stay where they are, after Seize's.
   * A script that moves Seize's entries again the same way is left to it, once the GM is told:
   * put back, it would move them again, without end.
   */
  changed() {
    if (!this.election.leads() || this.written === null) return Promise.resolve();
    const now = parseOrder(this.campaign.get("turnorder"));
    if (sameOrder(now, this.order)) return Promise.resolve(); // our own write
    return this.queue.run(async () => {
      const before = this.written ?? [];
      const verdict = judge(before, now);
      const view = this.view();
      const command = verdict === "next" && view ? nextCommand(view) : null;
      if (command) {
        this.undone = "";
        await this.send(command, advanceKey(this.table, this.seq(), before));
      } else if (verdict === "moved") {
        // A script that turns the order round whenever it changes (TurnMarker's Auto Skip
        // Hidden) turns it round again once it is put back: the second time, let it be.
        const turned = isTurned(this.order, now) ? JSON.stringify(now) : "";
        if (turned && turned === this.undone) {
          this.tell("A Mod script keeps turning Seize's turn order round in Roll20 (TurnMarker's "
                    + "Auto Skip Hidden?). Seize has not moved on: advance with Next.");
          return;
        }
        this.undone = turned;
        this.tell("Seize's turn order was changed in Roll20 (a drag, or a Mod script's sort or "
                  + "skip) and is put back: only Next moves it on.");
      }
      await this.#write();
    });
  }

  async #write() {
    const entries = await this.turnorder();
    const known = [...(this.written ?? []), ...entries];
    // Everyone else's entries stay, after Seize's, in the order they are in.
    const now = parseOrder(this.campaign.get("turnorder"));
    const found = identify(known, now);
    const theirs = now.filter((entry, n) => found[n] === -1 && !tagOf(entry));
    const order = [...entries, ...theirs];
    if (!sameOrder(entries, this.written ?? [])) this.undone = "";
    this.written = entries;
    this.order = order;
    if (this.campaign.get("turnorder") !== JSON.stringify(order)) {
      this.campaign.save({ turnorder: JSON.stringify(order) });
    }
    // Players see the turn order only while its window is open: open it once there is one.
    if (entries.length && !this.campaign.get("initiativepage")) {
      this.campaign.save({ initiativepage: true });
    }
  }
}

/**
 * Whether ``after`` is ``before`` turned round: the same entries, the first few moved to the end.
 * @param {Partial<Entry>[]} before
 * @param {Partial<Entry>[]} after
 */
function isTurned(before, after) {
  const keys = before.map(entryKey);
  const turned = after.map(entryKey);
  return keys.length === turned.length && keys.some((_, by) => by > 0
    && turned.every((key, n) => key === keys[(n + by) % keys.length]));
}

/**
 * Whether two turn orders are the same entries in the same order, however written.
 * @param {Partial<Entry>[]} a
 * @param {Partial<Entry>[]} b
 */
function sameOrder(a, b) {
  return a.length === b.length && a.every((entry, n) => entryKey(entry) === entryKey(b[n])
    && (tagOf(entry) !== "" || sameFace(entry, b[n])));
}
