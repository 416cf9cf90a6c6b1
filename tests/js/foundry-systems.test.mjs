// The Foundry module in the worlds GMs really run: the stand-in carries what pf2e, SWADE and
// dnd5e override (foundry-stand-in.mjs), and each test here is one way those worlds broke it.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CoreCombat, RefusingCombatant, SYSTEMS, browser, configure, load, receive, settle, tracker,
  world,
} from "./foundry-stand-in.mjs";
import { fixtures } from "./fixtures.mjs";

const theCombat = () => {
  const combats = globalThis.game.combats.filter((c) => c.flags.seize?.table === "t1");
  assert.equal(combats.length, 1, "exactly one Combat of Seize's");
  return combats[0];
};
const initiatives = (combat) => Object.fromEntries(
  combat.combatants.contents.map((c) => [c.id, c.initiative]));
const byKey = (combat, key) => combat.combatants.find((c) => c.flags.seize.key === key);

/** Tokens on a scene that is not the one on the canvas, as for a GM who moved on. */
const elsewhere = () => {
  const combatants = fixtures["from-tokens"].before.combat.combatants;
  const tokens = combatants.map((c, n) => ({ id: c.flags.seize.participant.slice(4),
                                             actorId: `actor${n}`, name: `Token ${n}` }));
  return {
    scenes: [{ id: "scene-1", tokens }, { id: "scene-2", tokens: [] }], viewing: "scene-2",
    actors: tokens.map((_, n) => ({ id: `actor${n}`, name: `Actor ${n}`, system: { dex: n } })),
  };
};

for (const table of ["four-color", "from-tokens"]) {
  test(`pf2e: every participant appears, whatever is on the canvas (${table})`, async () => {
    const { before } = fixtures[table];
    await load({ system: SYSTEMS.pf2e, served: before.combat, ...elsewhere() });
    await configure();
    await receive(before.view);
    assert.equal(theCombat().combatants.size, before.combat.combatants.length);
    assert.deepEqual(world.notices, []);
  });
}

test("a combatant a system still refuses is named to the GM", async () => {
  const served = structuredClone(fixtures["four-color"].before.combat);
  served.combatants[1].name = "Loot chest";
  await load({ combatant: RefusingCombatant, served });
  await configure();
  await receive(fixtures["four-color"].before.view);
  assert.equal(theCombat().combatants.size, served.combatants.length - 1);
  assert.equal(world.notices.length, 1);
  assert.match(world.notices[0].message, /Loot chest/);
  await receive(fixtures["four-color"].before.view, 2);
  assert.equal(world.notices.length, 1, "told once, not at every view");
});

/** What each of the tracker's controls does on Seize's Combat, before the first Panel. */
const controls = {
  nextTurn: [{ type: "next_panel" }],
  previousTurn: [],
  nextRound: [],
  previousRound: [],
  startCombat: [],
  rollInitiative: [],
  resetAll: [],
  endCombat: [{ type: "end_scene" }],
};
for (const system of ["pf2e", "swade", "dnd5e"]) {
  for (const [method, sent] of Object.entries(controls)) {
    test(`${system}: ${method} on Seize's Combat sends Seize's command or says no, and runs none of the system's workflow`, async () => {
      const { before } = fixtures["four-color"];
      await load({ system: SYSTEMS[system], served: before.combat });
      await configure();
      await receive(before.view);
      const combat = theCombat();
      const was = { round: combat.round, turn: combat.turn, initiatives: initiatives(combat) };
      await combat[method](method === "rollInitiative" ? combat.combatants.map((c) => c.id) : undefined);
      await settle();
      assert.deepEqual(world.workflow, []);
      assert.deepEqual(world.commands, sent);
      if (!sent.length) assert.equal(world.notices.length, 1, "the GM is told why not");
      assert.equal(theCombat(), combat);
      assert.deepEqual({ round: combat.round, turn: combat.turn, initiatives: initiatives(combat) },
                       was);
    });
  }
}

test("SWADE: Next Turn before the first Panel (turn: null) is Seize's next, and nothing throws", async () => {
  const { before, after } = fixtures["four-color"];
  assert.equal(before.combat.turn, null);
  await load({ system: SYSTEMS.swade, served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  assert.equal(combat.turn, null);
  await combat.nextTurn();
  await settle();
  assert.deepEqual(world.commands, [{ type: "next_panel" }]);
  world.served = after.combat;
  await receive(after.view, 2);
  assert.equal(combat.turns[combat.turn].id, after.combat.combatants[after.combat.turn]._id);
});

test("pf2e: Seize moving the turn runs none of pf2e's start- or end-of-turn effects", async () => {
  const { before, after } = fixtures["megatraveller-rcs"];
  await load({ system: SYSTEMS.pf2e, served: before.combat });
  await configure();
  await receive(before.view);
  world.served = after.combat;
  await receive(after.view, 2);
  const combat = theCombat();
  assert.equal(combat.turns[combat.turn].flags.seize.key, "sarge");
  assert.deepEqual(world.workflow, []);
  assert.ok(!world.log.some((entry) => entry.what === "turn events"));
});

test("Seize moving on posts nothing back: the module's own writes are not a GM's Next", async () => {
  const { before, after } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  for (const [seq, turn] of [[2, 0], [3, 1], [4, 2]]) { // Seize plays three Panels
    world.served = { ...after.combat, turn };
    await receive(after.view, seq);
    assert.equal(theCombat().turns[theCombat().turn].id, after.combat.combatants[turn]._id);
  }
  assert.deepEqual(world.commands, []);
});

test("a GM who is not the active one asks through the Combat, and the active GM sends it", async () => {
  const { before } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  const request = { what: "nextTurn", id: "r1" };
  await combat.update({ flags: { seize: { request } } }, {}, "gm2");
  await settle();
  assert.deepEqual(world.commands, [{ type: "next_panel" }]);
  assert.equal(combat.flags.seize.table, "t1");
});

test("a GM who is not the active one writes the request: no link of its own, no workflow", async () => {
  await load({ system: SYSTEMS.swade, user: { id: "gm2", isActiveGM: false },
               served: fixtures["four-color"].before.combat });
  await configure();
  const combat = await globalThis.CONFIG.Combat.documentClass.create({ flags: { seize: { table: "t1" } } });
  await combat.nextRound();
  await settle();
  assert.equal(combat.flags.seize.request.what, "nextRound");
  assert.equal(combat.flags.seize.table, "t1");
  assert.deepEqual([world.workflow, world.commands, world.sockets], [[], [], []]);
});

test("hidden and defeated belong to the GM: the sync never puts them back", async () => {
  const { before, after } = fixtures["four-color"];
  for (const c of before.combat.combatants) assert.ok(!c.hidden && !c.defeated);
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  const combat = theCombat();
  await byKey(combat, "KS").update({ hidden: true }, {}, "gm2");
  await byKey(combat, "QH").update({ defeated: true }, {}, "gm2");
  await settle();
  world.served = after.combat;
  await receive(after.view, 2);
  assert.equal(byKey(combat, "KS").hidden, true);
  assert.equal(byKey(combat, "QH").defeated, true);
  assert.deepEqual(world.commands, [], "four-color has no taking out: defeated stays Foundry's");
});

test("a hidden token added to the table makes a hidden combatant", async () => {
  const { before } = fixtures["from-tokens"];
  const place = elsewhere();
  place.scenes[0].tokens[0].hidden = true;
  await load({ served: before.combat, ...place });
  await configure();
  await receive(before.view);
  const hidden = theCombat().combatants.find((c) => c.tokenId === place.scenes[0].tokens[0].id);
  assert.equal(hidden.hidden, true);
  assert.equal(theCombat().combatants.filter((c) => c.hidden).length, 1);
});

test("MegaTraveller: a combatant marked defeated is taken out in Seize", async () => {
  const { before } = fixtures["megatraveller-rcs"];
  await load({ served: before.combat });
  await configure();
  await receive(before.view);
  await byKey(theCombat(), "guard").update({ defeated: true }, {}, "gm2");
  await settle();
  assert.deepEqual(world.commands, [{ type: "take_out", character: "guard" }]);
});

for (const status of [401, 404]) {
  test(`a sync answered ${status} writes nothing and tells the GM`, async () => {
    const { before } = fixtures["four-color"];
    await load({ served: before.combat, status });
    await configure();
    await receive(before.view);
    assert.equal(globalThis.game.combats.filter((c) => c.flags.seize).length, 0);
    assert.ok(world.log.every((entry) => entry.what !== "create combat"));
    assert.equal(world.notices.length, 1);
    assert.equal(world.notices[0].level, "error");
  });
}

test("a revoked token stops the link and tells the GM what to do", async () => {
  const { before } = fixtures["four-color"];
  await load({ served: before.combat });
  await configure();
  world.sockets[0].onopen?.();
  world.sockets[0].onclose({ code: 1008 });
  await settle();
  assert.equal(world.sockets.length, 1);
  assert.equal(world.notices.length, 1);
  assert.match(world.notices[0].message, /SEIZE.Stopped.revoked/);
});

test("Foundry 12: the token is kept per world, so world A's token never goes to world B's table", async () => {
  const storage = { browser: browser(), worlds: {} };
  await load({ generation: 12, worldId: "world-a", served: fixtures["four-color"].before.combat, storage });
  await configure("token-of-world-a");
  assert.match(world.sockets[0].url, /token=token-of-world-a/);
  await load({ generation: 12, worldId: "world-b", served: fixtures["four-color"].before.combat, storage });
  const { settings } = globalThis.game;
  await settings.set("seize", "server", "http://other.test:8080");
  await settings.set("seize", "table", "t9");
  assert.ok(!world.sockets.some((socket) => socket.url.includes("token-of-world-a")));
  assert.equal(world.notices.at(-1)?.message, "SEIZE.NoToken");
});

for (const generation of [12, 13]) {
  test(`Foundry ${generation}: another GM of the world, in another browser, does not get the token`, async () => {
    const world_ = { browser: browser(), worlds: {} };
    await load({ generation, served: fixtures["four-color"].before.combat, storage: world_ });
    await configure("token-of-gm1");
    const elsewhere_ = { browser: browser(), worlds: world_.worlds }; // the same world database
    await load({ generation, user: { id: "gm2", isActiveGM: true },
                 served: fixtures["four-color"].before.combat, storage: elsewhere_ });
    assert.equal(globalThis.game.settings.get("seize", "token-world-a"), "");
    assert.ok(!JSON.stringify(world_.worlds).includes("token-of-gm1"), "not in the world's database");
    assert.equal(world.sockets.length, 0);
  });
}
