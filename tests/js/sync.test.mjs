import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Queue, byInitiative, movesForward, isOwnWrite, planCombat, seizeTableOf, tokenOf, turnIn,
  writeOptions,
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

const sorted = (combatants) => [...combatants].map((c) => ({ ...c, id: c._id })).sort(byInitiative);
const order = (combatants) => sorted(combatants.filter((c) => c.initiative !== null))
  .map((c) => c.flags.seize.key);
const engineOrder = (dialect) => dialect.combatants.filter((c) => c.initiative !== null)
  .map((c) => c.flags.seize.key);

for (const system of SYSTEMS) {
  test(`${system}: an empty combat gets every combatant, in the engine's order`, () => {
    const { combat } = fixtures[system].before;
    const plan = planCombat([], combat);
    assert.equal(plan.create.length, combat.combatants.length);
    assert.deepEqual(plan.update, []);
    assert.deepEqual(order(apply([], plan)), engineOrder(combat));
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
  });
}

test("the turn is found by the current combatant's id in whatever order the system sorted", () => {
  const { combat } = fixtures["megatraveller-rcs"].after;
  const turns = sorted(combat.combatants);
  assert.equal(turns[turnIn(turns, combat)].flags.seize.key, "sarge");
  const reversed = [...turns].reverse();
  assert.equal(reversed[turnIn(reversed, combat)].flags.seize.key, "sarge");
  assert.equal(turnIn([], combat), null);
  assert.equal(turnIn(turns, { ...combat, turn: null }), null);
});

test("a turn or round moved forward is an advance; back, or nowhere, is not", () => {
  const at = { round: 2, turn: 1 };
  assert.equal(movesForward(at, { turn: 2 }), true);
  assert.equal(movesForward(at, { round: 3, turn: 0 }), true);
  assert.equal(movesForward(at, { turn: 0 }), false);
  assert.equal(movesForward(at, { round: 1, turn: 3 }), false);
  assert.equal(movesForward(at, { turn: 1 }), false);
});

test("only a Combat flagged with a table is Seize's; a token's participant names its token", () => {
  assert.equal(seizeTableOf({ flags: { seize: { table: "t1" } } }), "t1");
  assert.equal(seizeTableOf({ flags: {} }), null);
  assert.equal(seizeTableOf({ flags: { seize: { table: "" } } }), null);
  assert.equal(seizeTableOf(null), null);
  assert.equal(tokenOf("fvttAb12"), "Ab12");
  assert.equal(tokenOf("h1"), null);
  assert.equal(tokenOf(null), null);
});

test("the queue runs one task at a time, in order, past a failure", async () => {
  const queue = new Queue();
  const steps = [];
  const task = (name, fail) => async () => {
    steps.push(`${name} starts`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    steps.push(`${name} ends`);
    if (fail) throw new Error(name);
  };
  const runs = [queue.run(task("a", true)), queue.run(task("b")), queue.run(task("c"))];
  await assert.rejects(runs[0], /a/);
  await Promise.all(runs.slice(1));
  assert.deepEqual(steps, ["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"]);
});

test("the module's own writes are recognised, and nothing else is", () => {
  assert.equal(isOwnWrite(writeOptions({ turnEvents: false })), true);
  assert.equal(isOwnWrite({}), false);
  assert.equal(isOwnWrite(undefined), false);
});

test("no hidden initiative reaches Foundry for the awareness one-pager", () => {
  for (const moment of ["before", "after"]) {
    const text = JSON.stringify(fixtures.awareness[moment].combat);
    assert.ok(!/"qr"|"score"/.test(text));
  }
});
