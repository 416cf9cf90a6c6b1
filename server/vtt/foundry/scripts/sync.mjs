// From Seize's Foundry dialect to the changes Seize's own Combat needs, and the rules that keep
// the module away from every other encounter. Pure: no Foundry globals here.

/**
 * @typedef {{key: string, participant: string | null, label: string, current: boolean,
 *            done: boolean, [detail: string]: unknown}} SeizeFlags
 * @typedef {{_id: string, name: string, initiative: number | null, hidden?: boolean,
 *            defeated?: boolean, flags: {seize: SeizeFlags}}} DialectCombatant
 * @typedef {{round: number, turn: number | null, combatants: DialectCombatant[]}} Dialect
 * @typedef {{_id: string, name?: string, initiative?: number | null, hidden?: boolean,
 *            defeated?: boolean, flags?: {seize?: unknown}}} ExistingCombatant
 * @typedef {Record<string, unknown> & {_id: string}} CombatantChange
 * @typedef {{create: DialectCombatant[], update: CombatantChange[], delete: string[]}} Plan
 */

/** The flag this module marks its own writes with, so its hooks never echo them back. */
export const OWN_WRITE = "seizeSync";

/**
 * Whether a document change came from this module's own sync.
 * @param {object | undefined} options the options a document hook received
 */
export function isOwnWrite(options) {
  return Boolean(options && /** @type {Record<string, unknown>} */ (options)[OWN_WRITE]);
}

/**
 * The options to write with, so the resulting hooks are recognised as our own.
 * @template {object} T
 * @param {T} [extra]
 */
export function writeOptions(extra) {
  return { ...extra, [OWN_WRITE]: true };
}

/**
 * The Seize table a Combat was created for, or null for every other encounter: the flag it was
 * created with is the only way Seize's Combat is found, so the GM's own are never written to.
 * @param {{flags?: {seize?: {table?: unknown}}} | null | undefined} combat
 */
export function seizeTableOf(combat) {
  const table = combat?.flags?.seize?.table;
  return typeof table === "string" && table ? table : null;
}

/** The creation data of Seize's Combat for ``table``. @param {string} table */
export function combatData(table) {
  return { flags: { seize: { table } } };
}

/**
 * The combatant creations, updates and deletions that bring ``existing`` (the combatants of
 * Seize's own Combat, which holds nothing else) to the dialect's. Only what differs is written.
 * Hidden and defeated belong to the GM: Seize may hide or mark one, never un-hide or un-mark
 * what the GM set.
 * @param {ExistingCombatant[]} existing
 * @param {Dialect} dialect
 * @returns {Plan}
 */
export function planCombat(existing, dialect) {
  const have = new Map(existing.map((combatant) => [combatant._id, combatant]));
  const want = new Map(dialect.combatants.map((combatant) => [combatant._id, combatant]));
  /** @type {Plan} */
  const plan = { create: [], update: [], delete: [...have.keys()].filter((id) => !want.has(id)) };
  for (const [id, target] of want) {
    const current = have.get(id);
    if (!current) {
      plan.create.push(target);
      continue;
    }
    /** @type {CombatantChange} */
    const changes = { _id: id };
    for (const field of /** @type {const} */ (["name", "initiative"])) {
      if (current[field] !== target[field]) changes[field] = target[field];
    }
    for (const field of /** @type {const} */ (["hidden", "defeated"])) {
      if (target[field] === true && current[field] !== true) changes[field] = true;
    }
    if (JSON.stringify(current.flags?.seize ?? null) !== JSON.stringify(target.flags.seize)) {
      changes["flags.seize"] = target.flags.seize;
    }
    if (Object.keys(changes).length > 1) plan.update.push(changes);
  }
  return plan;
}

/**
 * Foundry's ``turn`` indexes ``combat.turns``, which the game system sorts its own way (by
 * initiative, by card and suit, by something on the actor): the current turn is found there by
 * the current combatant's id, after the combatants are written, never by a sort of our own.
 * @param {{id: string | null}[]} turns ``combat.turns``, as the system sorted them
 * @param {Dialect} dialect
 * @returns {number | null}
 */
export function turnIn(turns, dialect) {
  const current = dialect.turn === null ? undefined : dialect.combatants[dialect.turn]?._id;
  const index = current === undefined ? -1 : turns.findIndex((turn) => turn.id === current);
  return index === -1 ? null : index;
}

/**
 * What Seize last wrote: its round, who is current (a combatant id, or null before anyone is),
 * and the tracker's order of combatant ids as the system sorted them then.
 * @typedef {{round: number, current: string | null, order: string[]}} Written
 * A change by hand that left the tracker in another order than Seize's (a row dragged in pf2e,
 * SWADE's Act Now or Act After): the order it left. Systems follow such a change with a
 * ``turn`` write of their own, to keep a combatant current.
 * @typedef {{order: string[]}} Reorder
 * @typedef {"next" | "reorder" | "back"} TurnWrite
 */

/**
 * What a ``turn`` or ``round`` write made by hand means, read by who it makes current, never by
 * the index alone (an index means another combatant once the rows move):
 * - ``"next"``: a new round, or the tracker, in Seize's order, now on a combatant after Seize's
 *   current one: a GM's Next Turn, which is the engine's "next";
 * - ``"reorder"``: the write that comes with a reorder by hand, whether it lands before Seize's
 *   order is put back or after (the turn that keeps Seize's current combatant current in the
 *   order the reorder left, as pf2e's drop and SWADE's Act After write it, or the one the
 *   reorder moved just before it, as SWADE's Act Now does), or any write while the tracker is
 *   not in Seize's order;
 * - ``"back"``: anything else (nothing moved, Previous Turn).
 * @param {Written} written
 * @param {{round?: number | null, turn?: number | null}} changes what the write changed
 * @param {string[]} order the tracker's order now
 * @param {number | null} turn the tracker's turn now
 * @param {Reorder | null} reorder a reorder by hand since Seize last moved, if any
 * @returns {TurnWrite}
 */
export function readTurnWrite(written, changes, order, turn, reorder) {
  const round = changes.round ?? written.round;
  if (round !== written.round) return round > written.round ? "next" : "back";
  const now = turn === null ? null : order[turn] ?? null;
  if (reorder) {
    const { kept, moved } = keptBy(reorder, written);
    if ((typeof changes.turn === "number" && kept.includes(changes.turn))
        || (now !== null && now === moved)) {
      return "reorder";
    }
  }
  if (order.join() !== written.order.join()) return "reorder";
  if (now === null || now === written.current) return "back";
  const was = written.current === null ? -1 : written.order.indexOf(written.current);
  return written.order.indexOf(now) > was ? "next" : "back";
}

/**
 * Where a reorder left Seize's current combatant, and the combatant it moved just before it
 * (null if the one before it is the one Seize has there): the turns a system writes to keep
 * either current.
 * @param {Reorder} reorder
 * @param {Written} written
 */
function keptBy(reorder, written) {
  const at = written.current === null ? -1 : reorder.order.indexOf(written.current);
  const ahead = at > 0 ? reorder.order[at - 1] ?? null : null;
  const was = written.current === null ? -1 : written.order.indexOf(written.current);
  const moved = ahead !== null && ahead !== (was > 0 ? written.order[was - 1] : null) ? ahead
    : null;
  return { kept: moved === null ? [at] : [at, at - 1], moved };
}

/**
 * The ids of a tracker's turns, in its order.
 * @param {{id: string | null}[]} turns
 */
export function orderOf(turns) {
  return turns.map((combatant) => combatant.id ?? "");
}

/**
 * Foundry's own order, for a combat a system's sort cannot handle (one that reads the actor of
 * a combatant that has none): initiative high to low, the undecided last, ties by id.
 * @param {{id: string | null, initiative: number | null}} a
 * @param {{id: string | null, initiative: number | null}} b
 */
export function byInitiative(a, b) {
  const ia = a.initiative ?? -Infinity;
  const ib = b.initiative ?? -Infinity;
  return ib - ia || String(a.id).localeCompare(String(b.id));
}

/**
 * The token a participant was joined from ("Add selected tokens" joins token T as ``fvttT``),
 * so its combatant can carry that token and its actor.
 * @param {string | null} participant
 */
export function tokenOf(participant) {
  return participant?.startsWith("fvtt") ? participant.slice(4) : null;
}

/**
 * Runs tasks one at a time, each after the last has settled, so two syncs never write at once
 * (which would create the same combatant twice).
 */
export class Queue {
  /** @type {Promise<unknown>} */
  #tail = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T>} task
   * @returns {Promise<T>}
   */
  run(task) {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
