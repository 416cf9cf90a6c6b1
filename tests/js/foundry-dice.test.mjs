// The table's dice fill Foundry's own rolls: the module's dice fulfillment method, run through
// the stand-in's Roll (foundry-stand-in.mjs: Foundry's dice as its types and API pages define
// them) against a Seize socket answering dice requests as docs/api.md says. Roll modes as
// Foundry means them: a roll evaluated without interaction (a blind roll, a simulation) never
// asks the table's dice.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DICE_ROLL_MODES, Roll, configure, load, receive, world } from "./foundry-stand-in.mjs";
import { fixtures, until } from "./fixtures.mjs";

const SOCKET = "module.seize";
const rolledWith = (faces) => (request) => ({ type: "dice-rolled", faces: faces.slice(0, request.count),
                                               dice: faces.slice(0, request.count).map(() => "pixels-000020a1") });
const useSeizeFor = (...denominations) => globalThis.game.settings.set(
  "core", "diceConfiguration", Object.fromEntries(denominations.map((d) => [d, "seize"])));
const results = (roll) => roll.dice.map((term) => term.results.map((r) => [r.result, r.active]));

/** A world of actors on a scene whose tokens joined the table (the fixture "from-tokens"). */
const tokenScene = () => {
  const combatants = fixtures["from-tokens"].before.combat.combatants;
  const tokens = combatants.map((c) => c.flags.seize.participant.slice(4));
  return {
    scenes: [{ id: "scene-1", tokens: tokens.map((id, n) => ({ id, actorId: `actor${n}` })) }],
    actors: tokens.map((_, n) => ({ id: `actor${n}`, system: { dex: 5 - n } })),
    participant: (n) => combatants[n].flags.seize.participant,
  };
};

async function linkedGm(options = {}) {
  const { before } = fixtures["from-tokens"];
  const scene = tokenScene();
  await load({ served: before.combat, ...scene, ...options });
  await configure();
  await receive(before.view);
  return scene;
}

test("the method is offered for every die, as Foundry's own are, and is not interactive", async () => {
  await load();
  const method = globalThis.CONFIG.Dice.fulfillment.methods.seize;
  assert.equal(method.label, "SEIZE.Dice.Method");
  assert.equal(method.interactive, false);
  assert.equal(typeof method.handler, "function");
  assert.ok(globalThis.CONFIG.Dice.fulfillment.methods.manual, "Foundry's own stay");
});

test("a GM's d20 with advantage is one request for two dice, and the higher is kept", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = rolledWith([17, 4]);
  const roll = await new Roll("2d20kh + 5").evaluate();
  assert.deepEqual(world.diceRequests.map(({ id, ...request }) => request),
                   [{ type: "dice", owner: "gm", sides: 20, count: 2, wait: 60 }]);
  assert.deepEqual(results(roll), [[[17, true], [4, false]]]);
  assert.equal(roll.total, 22);
});

test("dice set to Foundry's own roll never ask the table", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = rolledWith([1, 1, 1]);
  world.uniform = 0.25; // Foundry's own draw: a d8's 6
  const roll = await new Roll("1d8 + 2").evaluate();
  assert.deepEqual(world.diceRequests, []);
  assert.equal(roll.total, 8);
});

test("a request nobody answers in time is rolled by Foundry, once, with a notice", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = () => ({ type: "dice-timed-out" });
  world.uniform = 0.5; // Foundry's own draw: a d20's 10
  const roll = await new Roll("2d20kh").evaluate();
  assert.equal(world.diceRequests.length, 1, "the term's second die does not ask again");
  assert.deepEqual(results(roll), [[[10, true], [10, false]]]);
  assert.ok(world.notices.some((n) => n.level === "warn" && n.message.startsWith("SEIZE.Dice.Unrolled.timed-out")));
});

test("with no link to Seize Foundry rolls, and says why", async () => {
  await load();
  await useSeizeFor("d20");
  world.uniform = 0;
  const roll = await new Roll("1d20").evaluate();
  assert.equal(roll.total, 20);
  assert.ok(world.notices.some((n) => n.message.startsWith("SEIZE.Dice.Unrolled.offline")));
});

test("a player's roll goes to the active GM's client and comes back to the player's alone", async () => {
  const { before } = fixtures["from-tokens"];
  await load({ served: before.combat, ...tokenScene(),
               user: { id: "p1", isGM: false, isActiveGM: false, characterId: "actor0" },
               users: [{ id: "gm", isGM: true }, { id: "p2", isGM: false }] });
  await useSeizeFor("d20");
  const rolling = new Roll("1d20 + 3").evaluate();
  await until(() => world.emitted.length === 1, "the player's client never asked the GM's");
  const [{ name, message }] = world.emitted;
  assert.equal(name, SOCKET);
  assert.deepEqual({ ...message, id: undefined },
                   { kind: "dice", id: undefined, sides: 20, count: 1 },
                   "who asks is Foundry's to say: the message names no one");
  const rolledFor = (user, faces) => ({ kind: "rolled", id: message.id, user,
                                        rolled: { faces, dice: ["x"] } });
  world.relay(SOCKET, rolledFor("p2", [1]), "gm");
  world.relay(SOCKET, rolledFor("p1", [2]), "p2"); // another player's client cannot answer
  world.relay(SOCKET, rolledFor("p1", [15]), "gm");
  const roll = await rolling;
  assert.equal(roll.total, 18);
  assert.deepEqual(world.sockets, [], "a player's client never talks to Seize");
});

test("the GM's client asks Seize for the player's character's dice, never anyone else's", async () => {
  const { participant } = await linkedGm({
    users: [{ id: "p1", isGM: false, characterId: "actor0" }, { id: "p2", isGM: false }],
  });
  world.dice = rolledWith([12]);
  world.relay(SOCKET, { kind: "dice", id: "r1", sides: 20, count: 1 }, "p1");
  // p2's client names p1 in its message: the GM's client asks for the sender's dice all the same
  world.relay(SOCKET, { kind: "dice", id: "r2", user: "p1", sides: 20, count: 1 }, "p2");
  await until(() => world.emitted.length === 2, "the GM's client never answered both");
  assert.deepEqual(world.diceRequests.map((r) => r.owner), [participant(0)]);
  const answers = Object.fromEntries(world.emitted.map(({ message }) => [message.id, message]));
  assert.deepEqual(answers.r1, { kind: "rolled", id: "r1", user: "p1",
                                 rolled: { faces: [12], dice: ["pixels-000020a1"] } });
  assert.equal(answers.r2.rolled.faces, null, "p2 plays no character at the table: Foundry rolls");
  assert.equal(answers.r2.rolled.why, "refused");
});

test("a GM's blind roll never asks the table: the handler gives nothing and Foundry rolls", async () => {
  await linkedGm();
  await useSeizeFor("d20", "d100");
  world.dice = rolledWith([17]);
  world.uniform = 0.5; // Foundry's own draw: a d20's 10, a d100's 50
  const message = await new Roll("1d20 + 1d100").toMessage({}, { rollMode: DICE_ROLL_MODES.BLIND });
  assert.equal(message.blind, true);
  assert.deepEqual(world.diceRequests, [], "no die of the table was asked");
  assert.equal(message.rolls[0].total, 60);
  assert.deepEqual(world.handled.map((h) => h.options.allowInteractive), [false, false],
                   "Foundry still called the handler, telling it the roll allows no interaction");
  assert.deepEqual(world.notices.filter((n) => n.message.startsWith("SEIZE.Dice")), [],
                   "nothing said: no player is told a roll was hidden from them");
});

test("the core roll mode set to blind keeps a player's roll from their dice and from the GM's client", async () => {
  const { before } = fixtures["from-tokens"];
  await load({ served: before.combat, ...tokenScene(),
               user: { id: "p1", isGM: false, isActiveGM: false, characterId: "actor0" } });
  await useSeizeFor("d20");
  await globalThis.game.settings.set("core", "rollMode", DICE_ROLL_MODES.BLIND);
  world.uniform = 0; // Foundry's own draw: a d20's 20
  const message = await new Roll("1d20").toMessage();
  assert.equal(message.rollMode, "blindroll");
  assert.equal(message.rolls[0].total, 20);
  assert.deepEqual(world.emitted, [], "the GM's client was never asked for the player's dice");
});

for (const rollMode of [DICE_ROLL_MODES.PUBLIC, DICE_ROLL_MODES.PRIVATE, DICE_ROLL_MODES.SELF, "roll"]) {
  test(`a GM's ${rollMode} asks the GM's own dice and no one else's`, async () => {
    await linkedGm();
    await useSeizeFor("d20");
    world.dice = rolledWith([13]);
    const message = await new Roll("1d20 + 2").toMessage({}, { rollMode });
    assert.deepEqual(world.diceRequests.map((r) => [r.owner, r.sides, r.count]), [["gm", 20, 1]]);
    assert.equal(message.rolls[0].total, 15);
  });
}

test("a simulation never asks the table, and never waits on it", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = () => null; // the table never answers: a request would wait its 60 seconds
  world.uniform = 0.99; // a d20's 1
  const totals = await Roll.simulate("1d20", 50);
  assert.deepEqual(totals, Array(50).fill(1));
  assert.deepEqual(world.diceRequests, []);
});

test("a roll evaluated allowing interaction opens no resolver for the table's dice: they are not interactive", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = rolledWith([9]);
  const roll = await new Roll("1d20").evaluate();
  assert.equal(roll.total, 9);
  assert.deepEqual(world.resolvers, [], "Foundry's RollResolver prompts for interactive dice only");
  assert.deepEqual(world.handled.map((h) => h.options.allowInteractive), [true]);
});

test("beside Foundry's manual dice, a roll waits for the typed die and then asks the table for its own", async () => {
  await linkedGm();
  await globalThis.game.settings.set("core", "diceConfiguration", { d20: "seize", d6: "manual" });
  world.dice = rolledWith([18]);
  const rolling = new Roll("1d20 + 1d6").evaluate();
  await until(() => world.resolvers.length === 1, "Foundry never prompted for the manual d6");
  assert.deepEqual(world.diceRequests, [], "the resolver's first pass comes before any handler");
  assert.equal(Roll.registerResult("manual", "d6", 4), true);
  const roll = await rolling;
  assert.equal(roll.total, 22);
  assert.deepEqual(world.diceRequests.map((r) => r.sides), [20]);
});

test("a blind roll with Foundry's manual dice prompts for none: Foundry rolls them all", async () => {
  await linkedGm();
  await globalThis.game.settings.set("core", "diceConfiguration", { d20: "seize", d6: "manual" });
  world.uniform = 0.5;
  const message = await new Roll("1d20 + 1d6").toMessage({}, { rollMode: DICE_ROLL_MODES.BLIND });
  assert.equal(message.rolls[0].total, 13);
  assert.deepEqual([world.resolvers, world.diceRequests], [[], []]);
});

test("a percentile roll, d% or 1d100, asks for the roller's d100: the faces the table's pair made", async () => {
  await linkedGm();
  await useSeizeFor("d100");
  world.dice = rolledWith([47, 100]);
  const roll = await new Roll("d% + 1d100").evaluate();
  assert.deepEqual(world.diceRequests.map((r) => [r.owner, r.sides, r.count]),
                   [["gm", 100, 1], ["gm", 100, 1]]);
  assert.equal(roll.total, 94, "each term its own request: 47 each");
});

test("a roll evaluated before its blind message (dnd5e's check) never asks the table either", async () => {
  // dnd5e's BasicRoll.build evaluates its rolls allowing interaction, then posts them with the
  // roll mode its dialog chose (roll.options.rollMode), or the chat's (module/dice/basic-roll.mjs).
  await linkedGm();
  await useSeizeFor("d20");
  world.dice = rolledWith([17]);
  world.uniform = 0.5;
  const own = await new Roll("1d20 + 5", {}, { rollMode: DICE_ROLL_MODES.BLIND }).evaluate();
  assert.equal(own.total, 15);
  await globalThis.game.settings.set("core", "rollMode", DICE_ROLL_MODES.BLIND);
  const chats = await new Roll("1d20 + 5").evaluate();
  assert.equal(chats.total, 15);
  assert.deepEqual(world.diceRequests, [], "neither blind roll asked the table");
  // The roll's own mode comes first: a public check while the chat is set to blind asks.
  const check = await new Roll("1d20", {}, { rollMode: DICE_ROLL_MODES.PUBLIC }).evaluate();
  assert.equal(check.total, 17);
  assert.deepEqual(world.diceRequests.map((r) => r.sides), [20]);
});

test("the module offers the Fate die to the dice configuration, beside Foundry's own", async () => {
  await load();
  const { dice } = globalThis.CONFIG.Dice.fulfillment;
  assert.deepEqual(Object.keys(dice), ["d4", "d6", "d8", "d10", "d12", "d20", "d100", "f"]);
  assert.equal(dice.f.label, "dF", "keyed by FateDie's denomination, as the term's method is read");
});

test("4dF asks the roller's Fudge dice for four three-faced dice: each face less two, − a failure, + a success", async () => {
  await linkedGm();
  await useSeizeFor("f");
  world.dice = rolledWith([1, 2, 3, 3]); // −, blank, +, +
  const roll = await new Roll("4dF + 2").evaluate();
  assert.deepEqual(world.diceRequests.map(({ id, ...request }) => request),
                   [{ type: "dice", owner: "gm", sides: 3, count: 4, wait: 60 }]);
  assert.ok(world.notices.some((n) => n.message === 'SEIZE.Dice.Roll {"dice":"4dF"}'),
            "the GM is told to roll 4dF, not 4d3");
  assert.deepEqual(roll.dice[0].results, [
    { result: -1, active: true, failure: true }, { result: 0, active: true },
    { result: 1, active: true, success: true }, { result: 1, active: true, success: true }]);
  assert.equal(roll.total, 3);
});

test("a dF beside a d6, each set to the table's dice, asks for each its own faces", async () => {
  await linkedGm();
  await useSeizeFor("f", "d6");
  world.dice = (request) => rolledWith(request.sides === 3 ? [1] : [6])(request);
  const roll = await new Roll("1dF + 1d6").evaluate();
  assert.deepEqual(world.diceRequests.map((r) => [r.sides, r.count]), [[3, 1], [6, 1]]);
  assert.deepEqual(results(roll), [[[-1, true]], [[6, true]]]);
  assert.equal(roll.total, 5);
});

test("a dF left to Foundry, or not answered, is Foundry's own Fate die: -1, 0 or +1", async () => {
  await linkedGm();
  await useSeizeFor("d20");
  world.uniform = 0.9; // Foundry's own draw: the uniform times three, less two, up: +1
  const own = await new Roll("dF").evaluate();
  assert.deepEqual(world.diceRequests, []);
  assert.deepEqual(own.dice[0].results, [{ result: 1, active: true, success: true }]);
  await useSeizeFor("f");
  world.dice = () => ({ type: "dice-timed-out" });
  world.uniform = 0.1;
  const fallen = await new Roll("2dF").evaluate();
  assert.equal(world.diceRequests.length, 1);
  assert.deepEqual(results(fallen), [[[-1, true], [-1, true]]]);
});
