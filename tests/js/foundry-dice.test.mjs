// The table's dice fill Foundry's own rolls: the module's dice fulfillment method, run through
// the stand-in's Roll (foundry-stand-in.mjs: Foundry's dice as its types and API pages define
// them) against a Seize socket answering dice requests as docs/api.md says.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Roll, configure, load, receive, world } from "./foundry-stand-in.mjs";
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
