import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Queue, byInitiative, isOwnWrite, orderOf, planCombat, readTurnWrite, seizeTableOf, tokenOf,
  turnIn, writeOptions,
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

// Seize's tracker: A, B (current), C, D in round 2.
const written = { round: 2, current: "B", order: ["A", "B", "C", "D"] };
const seizes = written.order;
const at = (who, order = seizes) => order.indexOf(who);

test("Next is read by who becomes current: a later combatant in Seize's order, or a new round", () => {
  assert.equal(readTurnWrite(written, { turn: 2 }, seizes, 2, null), "next");
  assert.equal(readTurnWrite(written, { turn: 3 }, seizes, 3, null), "next");
  assert.equal(readTurnWrite(written, { round: 3, turn: 0 }, seizes, 0, null), "next");
  assert.equal(readTurnWrite(written, { turn: 0 }, seizes, 0, null), "back");
  assert.equal(readTurnWrite(written, { turn: 1 }, seizes, 1, null), "back");
  assert.equal(readTurnWrite(written, { round: 1, turn: 3 }, seizes, 3, null), "back");
  const first = { round: 1, current: null, order: seizes };
  assert.equal(readTurnWrite(first, { turn: 0 }, seizes, 0, null), "next", "the first turn");
});

test("a forward turn written with a reorder is the reorder's, whether Seize's order is back yet or not", () => {
  // pf2e: D dropped on top; setMultipleInitiatives keeps B current, now one row further down.
  const dropped = ["D", "A", "B", "C"];
  const reorder = { order: dropped };
  const turn = at("B", dropped);
  assert.equal(turn, 2);
  assert.equal(readTurnWrite(written, { turn }, dropped, turn, reorder), "reorder", "before");
  // The put-back landed first: index 2 is C in Seize's order, as if Next had been pressed.
  assert.equal(readTurnWrite(written, { turn }, seizes, turn, reorder), "reorder", "after");
  assert.equal(readTurnWrite(written, { turn }, dropped, turn, null), "reorder",
               "the tracker is not in Seize's order: nothing there is Next");
  // SWADE's Act Now: D just before B, and D current, wherever Seize puts D back.
  const actNow = { order: ["A", "D", "B", "C"] };
  assert.equal(readTurnWrite(written, { turn: 1 }, actNow.order, 1, actNow), "reorder");
  assert.equal(readTurnWrite(written, { turn: 3 }, seizes, 3, actNow), "reorder");
  // SWADE's Act After from the top: A just after B, B one row up.
  const actAfter = { order: ["B", "A", "C", "D"] };
  assert.equal(readTurnWrite(written, { turn: 0 }, actAfter.order, 0, actAfter), "reorder");
});

test("after a reorder that moved no one before the current one, Next is still Next", () => {
  const reorder = { order: ["A", "B", "D", "C"] }; // D dropped just below the current one
  assert.equal(readTurnWrite(written, { turn: 2 }, seizes, 2, reorder), "next");
  assert.deepEqual(orderOf([{ id: "A" }, { id: null }]), ["A", ""]);
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
