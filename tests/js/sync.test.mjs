import assert from "node:assert/strict";
import { test } from "node:test";

import {
  electedGm, isOwnWrite, planCombat, sortedLikeFoundry, turnIndex, writeOptions,
} from "../../server/vtt/foundry/scripts/sync.mjs";
import { SYSTEMS, fixtures } from "./fixtures.mjs";

/** Apply a plan to a stand-in of Foundry's combatant collection. */
function apply(existing, plan) {
  const byId = new Map(existing.map((c) => [c._id, structuredClone(c)]));
  for (const id of plan.delete) byId.delete(id);
  for (const created of plan.create) byId.set(created._id, structuredClone(created));
  for (const { _id, ...changes } of plan.update) {
    const combatant = byId.get(_id);
    for (const [field, value] of Object.entries(changes)) {
      if (field === "flags.seize") combatant.flags = { ...combatant.flags, seize: value };
      else combatant[field] = value;
    }
  }
  return [...byId.values()];
}

const order = (combatants) => sortedLikeFoundry(combatants.filter((c) => c.initiative !== null))
  .map((c) => c.flags.seize.key);
const engineOrder = (dialect) => dialect.combatants.filter((c) => c.initiative !== null)
  .map((c) => c.flags.seize.key);

for (const system of SYSTEMS) {
  test(`${system}: an empty combat gets every combatant, in the engine's order`, () => {
    const { combat } = fixtures[system].before;
    const plan = planCombat([], combat);
    assert.equal(plan.create.length, combat.combatants.length);
    assert.deepEqual(plan.update, []);
    const combatants = apply([], plan);
    assert.deepEqual(order(combatants), engineOrder(combat));
    const current = sortedLikeFoundry(combatants)[plan.combat.turn];
    if (combat.turn !== null) assert.equal(current._id, combat.combatants[combat.turn]._id);
  });

  test(`${system}: a combat in step writes nothing`, () => {
    const { combat } = fixtures[system].before;
    const plan = planCombat(apply([], planCombat([], combat)), combat);
    assert.deepEqual([plan.create, plan.update, plan.delete], [[], [], []]);
  });

  test(`${system}: after the table moves, only what changed is written`, () => {
    const { before, after } = fixtures[system];
    const combatants = apply([], planCombat([], before.combat));
    const plan = planCombat(combatants, after.combat);
    assert.ok(plan.create.length + plan.update.length + plan.delete.length > 0);
    for (const update of plan.update) assert.ok(Object.keys(update).length > 1);
    assert.deepEqual(order(apply(combatants, plan)), engineOrder(after.combat));
    assert.equal(plan.combat.turn, turnIndex(after.combat));
  });
}

test("the tracker's turn points at the engine's current actor", () => {
  const { combat } = fixtures["megatraveller-rcs"].after;
  const sorted = sortedLikeFoundry(combat.combatants);
  assert.equal(sorted[turnIndex(combat)].flags.seize.key, "sarge");
});

test("the module's own writes are recognised, and nothing else is", () => {
  assert.equal(isOwnWrite(writeOptions({ turnEvents: false })), true);
  assert.equal(isOwnWrite({}), false);
  assert.equal(isOwnWrite(undefined), false);
});

test("only the active GM with the lowest user id talks to Seize", () => {
  const users = [
    { id: "zGM", isGM: true, active: true }, { id: "aGM", isGM: true, active: false },
    { id: "mGM", isGM: true, active: true }, { id: "aPlayer", isGM: false, active: true },
  ];
  assert.equal(electedGm(users), "mGM");
  assert.equal(electedGm([{ id: "p", isGM: false, active: true }]), null);
});

test("no hidden initiative reaches Foundry for the awareness one-pager", () => {
  for (const moment of ["before", "after"]) {
    const text = JSON.stringify(fixtures.awareness[moment].combat);
    assert.ok(!/"qr"|"score"/.test(text));
  }
});
