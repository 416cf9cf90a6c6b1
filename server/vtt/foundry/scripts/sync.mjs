// From Seize's Foundry dialect to the changes Foundry's combat needs. Pure: no Foundry here.

/** The flag this module marks its own writes with, so its hooks never echo them back. */
export const OWN_WRITE = "seizeSync";

/** Whether a document change came from this module's own sync. */
export function isOwnWrite(options) {
  return Boolean(options && options[OWN_WRITE]);
}

/** The options to write with, so the resulting hooks are recognised as our own. */
export function writeOptions(extra = {}) {
  return { ...extra, [OWN_WRITE]: true };
}

/**
 * The combatant creations, updates and deletions that bring ``existing`` (Foundry's combatants:
 * {_id, name, initiative, hidden, defeated, flags}) to the dialect's, and the combat's own
 * round and turn. Only what differs is written.
 */
export function planCombat(existing, dialect) {
  const have = new Map(existing.map((combatant) => [combatant._id, combatant]));
  const want = new Map(dialect.combatants.map((combatant) => [combatant._id, combatant]));
  const create = [];
  const update = [];
  for (const [id, target] of want) {
    const current = have.get(id);
    if (!current) {
      create.push(target);
      continue;
    }
    const changes = {};
    for (const field of ["name", "initiative", "hidden", "defeated"]) {
      if (current[field] !== target[field]) changes[field] = target[field];
    }
    if (JSON.stringify(current.flags?.seize ?? null) !== JSON.stringify(target.flags.seize)) {
      changes["flags.seize"] = target.flags.seize;
    }
    if (Object.keys(changes).length) update.push({ _id: id, ...changes });
  }
  const remove = [...have.keys()].filter((id) => !want.has(id));
  return { create, update, delete: remove, combat: { round: dialect.round, turn: turnIndex(dialect) } };
}

/**
 * Foundry's ``turn`` is an index into its combatants sorted by initiative, high to low, with
 * the undecided last: find the current one there.
 */
export function turnIndex(dialect) {
  if (dialect.turn === null || dialect.turn === undefined) return null;
  const current = dialect.combatants[dialect.turn]?._id;
  return sortedLikeFoundry(dialect.combatants).findIndex((c) => c._id === current);
}

/** Foundry's own order: initiative high to low; no initiative last; ties by name. */
export function sortedLikeFoundry(combatants) {
  return [...combatants].sort((a, b) => {
    const ia = a.initiative ?? -Infinity;
    const ib = b.initiative ?? -Infinity;
    return ib - ia || a.name.localeCompare(b.name);
  });
}

/** The one client that talks to Seize: the active GM with the lowest user id. */
export function electedGm(users) {
  const gms = users.filter((user) => user.isGM && user.active).map((user) => user.id).sort();
  return gms[0] ?? null;
}
