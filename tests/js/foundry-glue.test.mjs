// The Foundry module itself (seize.mjs), run against a stand-in for Foundry (foundry-stand-in.mjs:
// Foundry cannot run here) and what a real Seize server served (fixtures.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CoreCombat, SYSTEMS, SwadeCombatant, configure, load, receive, settle, tracker, world,
} from "./foundry-stand-in.mjs";
import { fixtures } from "./fixtures.mjs";

const current = (dialect) => dialect.combatants[dialect.turn]._id;
const seizeCombats = () => globalThis.game.combats.filter((c) => c.flags.seize?.table === "t1");
const theCombat = () => {
  const combats = seizeCombats();
  assert.equal(combats.length, 1, "exactly one Combat of Seize's");
  return combats[0];
};
const initiatives = (combat) => Object.fromEntries(
  combat.combatants.contents.map((c) => [c.id, c.initiative]));

/** A GM's own encounter, active on the viewed scene, with two combatants Seize does not know. */
async function gmsEncounter() {
  const combat = new CoreCombat({ active: true, scene: "scene-1", round: 3, turn: 1 });
  for (const [id, name] of [["gmOwnCombatant1", "Ogre"], ["gmOwnCombatant2", "Troll"]]) {
    combat.combatants.set(id, { id, _id: id, name, initiative: 10, parent: combat });
  }
  return combat;
}

test("a GM's own encounter is never touched; Seize writes into one Combat of its own", async () => {
  const { before } = fixtures["four-color"];
  const own = await gmsEncounter();
  await load({ combats: [own], served: before.combat });
  globalThis.game.combat = own; // the encounter the GM is viewing
  await configure();
  await receive(before.view);
  await receive(before.view, 2);
  const combat = theCombat();
  assert.notEqual(combat, own);
  assert.deepEqual([...own.combatants.keys()], ["gmOwnCombatant1", "gmOwnCombatant2"]);
  assert.deepEqual([own.round, own.turn, own.active], [3, 1, true]);
  assert.ok(world.log.every((entry) => entry.combat === combat.id));
  assert.equal(combat.active, false, "it does not deactivate the GM's encounter");
  assert.equal(combat.combatants.size, before.combat.combatants.length);
  assert.ok(world.log.every((entry) => entry.options.seizeSync === true), "all its own writes");
});

test("after a reload Seize finds its Combat again by its flag and creates no other", async () => {
  const { before, after } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  await load({ combats: [await gmsEncounter(), combat], served: after.combat });
  await configure();
  await receive(after.view);
  assert.equal(theCombat(), combat);
  assert.ok(!world.log.some((entry) => entry.what === "create combat"));
  assert.equal(combat.turns[combat.turn].id, current(after.combat));
});

test("views arriving together are written one at a time: no Combat or combatant twice", async () => {
  const { before } = fixtures["megatraveller-rcs"];
  await load({ served: before.combat });
  await configure();
  const socket = world.sockets.at(-1);
  for (const seq of [1, 2, 3]) {
    socket.onmessage({ data: JSON.stringify({ type: "view", seq, view: before.view }) });
  }
  await settle();
  const combat = theCombat();
  assert.equal(combat.active, true, "with no other encounter, Seize's is the active one");
  assert.equal(combat.combatants.size, before.combat.combatants.length);
  const created = world.log.filter((entry) => entry.what === "create").flatMap((e) => e.ids);
  assert.equal(new Set(created).size, created.length);
});

const tokenScene = () => {
  const combatants = fixtures["from-tokens"].before.combat.combatants;
  const tokens = combatants.map((c) => c.flags.seize.participant.slice(4));
  return {
    scenes: [{ id: "scene-1", tokens: tokens.map((id, n) => ({ id, actorId: `actor${n}` })) }],
    actors: tokens.map((_, n) => ({ id: `actor${n}`, system: { dex: 5 - n } })),
  };
};

// Every sort over every table: where no combatant has an actor the actor-reading sort is guarded
// (Foundry's order stands in), and "from-tokens" gives every combatant its token's actor.
const sorts = [
  ["initiative, high to low (dnd5e)", SYSTEMS.dnd5e],
  ["SWADE's (on Hold first, then initiative, ties by name)", SYSTEMS.swade],
  ["one that reads the actor", SYSTEMS.actor],
];
for (const [sort, system] of sorts) {
  for (const table of Object.keys(fixtures)) {
    test(`the tracker highlights the engine's current actor: ${sort}, ${table}`, async () => {
      const { before, after } = fixtures[table];
      await load({ system, served: before.combat, ...(table === "from-tokens" ? tokenScene() : {}) });
      await configure();
      for (const [seq, moment] of [[1, before], [2, after]]) {
        world.served = moment.combat;
        await receive(moment.view, seq);
        const combat = theCombat();
        assert.equal(combat.round, moment.combat.round);
        if (moment.combat.turn === null) continue;
        assert.equal(combat.turns[combat.turn].id, current(moment.combat));
      }
    });
  }
}

test("SWADE's order is not Foundry's: whoever is on Hold from the round before comes first", async () => {
  const { after } = fixtures["from-tokens"];
  await load({ system: SYSTEMS.swade, combatant: SwadeCombatant, served: after.combat,
               ...tokenScene() });
  await configure();
  await receive(after.view);
  const combat = theCombat();
  const last = combat.turns.at(-1);
  await last.toggleHold(); // the GM puts the last one on Hold, in this round
  await settle();
  world.served = { ...after.combat, round: after.combat.round + 1 };
  await receive(after.view, 2); // Seize moves to the next round, the same actor current
  combat.setupTurns(); // as Foundry sorts again at its next change
  assert.equal(combat.turns[0], last, "SWADE puts the one on Hold first");
  const byInitiative = [...combat.combatants.contents].sort(CoreCombat.prototype._sortCombatants);
  assert.notEqual(combat.turns.findIndex((c) => c.id === current(after.combat)),
                  byInitiative.findIndex((c) => c.id === current(after.combat)));
  assert.equal(combat.turns[combat.turn].id, current(after.combat));
  assert.deepEqual(world.commands, []);
});

test("participants joined from tokens carry the token and its actor", async () => {
  const { before } = fixtures["from-tokens"];
  await load({ system: SYSTEMS.actor, served: before.combat, ...tokenScene() });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  for (const combatant of combat.combatants.contents) {
    assert.equal(combatant.tokenId, combatant.flags.seize.participant.slice(4));
    assert.equal(combatant.sceneId, "scene-1");
    assert.ok(combatant.actor, combatant.name);
  }
});

test("an initiative edited or a combatant added or removed by hand is put back", async () => {
  const { before } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  const truth = initiatives(combat);
  const [first, second] = combat.combatants.contents;
  await combat.updateEmbeddedDocuments("Combatant", [{ _id: first.id, initiative: 99 }], {}, "gm2");
  await combat.deleteEmbeddedDocuments("Combatant", [second.id], {}, "gm2");
  await combat.createEmbeddedDocuments("Combatant", [{ name: "Stray" }], {}, "gm2");
  await settle();
  assert.deepEqual(initiatives(combat), truth);
  assert.deepEqual(world.commands, []);
});

test("any GM's Next Turn is the engine's next; Previous Turn is put back", async () => {
  const { before, after } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  const turn = combat.turn;
  await combat.update({ turn: turn - 1 }, {}, "gm1");
  await settle();
  assert.deepEqual(world.commands, []);
  assert.equal(combat.turn, turn);
  world.served = after.combat;
  await combat.update({ turn: turn + 1 }, {}, "gm2"); // a second GM presses Next Turn
  await settle();
  assert.deepEqual(world.commands, [{ type: "next_panel" }]);
  assert.equal(combat.turns[combat.turn].id, current(after.combat));
});

test("only the active GM talks to Seize, whatever the user ids", async () => {
  const { before } = fixtures["four-color"];
  await load({ user: { id: "aaaLowestGm", isActiveGM: false }, served: before.combat });
  await configure();
  assert.equal(world.sockets.length, 0);
  await load({ user: { id: "zzzHighestGm", isActiveGM: true }, served: before.combat });
  await configure();
  assert.equal(world.sockets.length, 1);
  assert.match(world.sockets[0].url, /^ws:\/\/seize\.test:8080\/api\/tables\/t1\/ws\?token=gm-token/);
});

for (const [generation, scope] of [[12, "client"], [13, "client"]]) {
  test(`Foundry ${generation}: the GM token is a ${scope} setting; no world setting holds it`, async () => {
    const { registered, stored } = await load({ generation, served: fixtures["four-color"].before.combat });
    await configure("the-gm-token");
    assert.equal(registered["token-world-a"].scope, scope);
    for (const [key, data] of Object.entries(registered)) {
      if (data.scope === "world") assert.ok(!/token/i.test(key), key);
    }
    assert.ok(!JSON.stringify(stored.worlds["world-a"].world).includes("the-gm-token"));
    assert.equal(world.sockets.length, 1);
  });
}

for (const [generation, dialog] of [[12, "Dialog"], [13, "DialogV2"]]) {
  test(`Foundry ${generation}: Declare asks in a ${dialog}, never window.prompt`, async () => {
    const { before } = fixtures["megatraveller-rcs"];
    await load({ generation, served: before.combat, answers: { what: "fires", target: "guard" } });
    await configure();
    await receive(before.view);
    const label = `Declare (${before.view.token})`;
    await tracker().click(label);
    assert.deepEqual(world.dialogs, [{ kind: dialog, title: label }]);
    assert.deepEqual(world.commands, [{ type: "declare", character: before.view.token,
                                      action: "long", what: "fires", target: "guard" }]);
  });
}

test("a dialog left empty sends nothing", async () => {
  const { before } = fixtures["megatraveller-rcs"];
  await load({ served: before.combat, answers: { what: "fires" } });
  await configure();
  await receive(before.view);
  await tracker().click(`Declare (${before.view.token})`);
  assert.deepEqual(world.commands, []);
});

/** Four-color's first Panel, followed: the module holds the table's socket, open. */
async function followed() {
  const { before } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  return theCombat();
}

test("the tracker's commands travel on the table's WebSocket, each under a key of its own", async () => {
  const combat = await followed();
  await combat.nextTurn();
  globalThis.canvas.tokens.controlled = [{ id: "tokenOfValeros01", name: "Valeros",
                                           actor: { hasPlayerOwner: true } }];
  await tracker().click("SEIZE.AddTokens");
  await combat.endCombat();
  await settle();
  assert.deepEqual(world.commands.map((command) => command.type),
                   ["next_panel", "join", "end_scene"]);
  assert.deepEqual(world.via, ["socket", "socket", "socket"], "no POST");
  assert.equal(new Set(world.keys).size, 3);
  assert.deepEqual(world.notices, []);
});

test("a command refused on the socket is said to the GM, as a refused POST was", async () => {
  const combat = await followed();
  world.status = 409;
  await combat.nextTurn();
  await settle();
  assert.deepEqual(world.via, ["socket"]);
  assert.deepEqual(world.commands, []);
  assert.deepEqual(world.notices.filter((notice) => notice.level === "warn"),
                   [{ level: "warn", message: "Seize: refused with 409", options: undefined }]);
});

test("a socket dropped before its answer: the command goes again as a POST and lands once", async () => {
  const combat = await followed();
  const socket = world.sockets.at(-1);
  const send = socket.send.bind(socket);
  socket.send = (text) => { // it reaches Seize; the connection drops before the reply
    send(text);
    socket.close(1006);
  };
  await combat.nextTurn();
  await settle();
  assert.deepEqual(world.via, ["socket", "post"]);
  assert.equal(world.keys[0], world.keys[1], "the same key: a retry, not a second command");
  assert.deepEqual(world.commands, [{ type: "next_panel" }]);
  assert.deepEqual(world.notices, []);
});
