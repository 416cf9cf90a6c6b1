// The Foundry module in the worlds GMs really run: the stand-in carries what pf2e, SWADE and
// dnd5e override (foundry-stand-in.mjs), and each test here is one way those worlds broke it.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CoreCombat, PF2eCombatant, RefusingCombatant, SYSTEMS, SwadeCombatant, TRACKERS, browser,
  configure, d20, load, receive, settle, tracker, world,
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

/** Seize's Combat as it stands: ids in the tracker's order, the turn, the initiatives. */
const standing = (combat) => ({ order: combat.turns.map((c) => c.id), turn: combat.turn,
                                initiatives: initiatives(combat) });
/** A write of ``turn`` made by hand (not the module's) that moved it past ``turn``. */
const movedForwardByHand = (turn) => world.log.some((entry) => entry.what === "update combat"
  && !entry.options.seizeSync && entry.changes.turn > turn);

test("pf2e: a row dragged above the current one is put back and the GM told; pf2e's turn write is not Next, a GM's Next still is", async () => {
  const { after } = fixtures["four-color"];
  await load({ system: SYSTEMS.pf2e, tracker: TRACKERS.pf2e, served: after.combat });
  await configure();
  await receive(after.view);
  const combat = theCombat();
  const was = standing(combat);
  assert.equal(was.turn, 0);
  await globalThis.ui.combat.dropCombatant(combat.turns.at(-1).id, 0);
  await settle();
  assert.ok(movedForwardByHand(was.turn), "pf2e kept its current combatant current: turn + 1");
  assert.deepEqual(world.commands, []);
  assert.deepEqual(standing(combat), was);
  assert.deepEqual(world.notices.map((notice) => notice.message), ["SEIZE.PutBack"]);
  await combat.update({ turn: was.turn + 1 }, { direction: 1 }, "gm2"); // a GM's Next Turn
  await settle();
  assert.deepEqual(world.commands, [{ type: "next_panel" }]);
});

test("SWADE: Hold, Act Now and Act After are never Next, whether their turn lands before Seize's order is back or after", async () => {
  const { after } = fixtures["from-tokens"];
  await load({ system: SYSTEMS.swade, combatant: SwadeCombatant, served: after.combat,
               ...elsewhere(), viewing: "scene-1" });
  await configure();
  await receive(after.view);
  const combat = theCombat();
  const was = standing(combat);
  const [, second, last] = combat.turns;
  const quick = world.effectWrite;
  // The holding effect's write on the actor, between the combatant's write and the turn's, is
  // quick (SWADE's turn lands first) or slow (Seize's order is back first).
  for (const effectWrite of [quick, settle]) {
    world.effectWrite = effectWrite;
    for (const press of [() => last.toggleHold(), () => last.actNow(), () => second.toggleHold(),
                         () => second.actAfterCurrentCombatant()]) {
      await press();
      await settle();
      assert.deepEqual(standing(combat), was);
    }
  }
  assert.ok(movedForwardByHand(was.turn), "Act Now made the one acting current, further down");
  assert.deepEqual(world.commands, []);
  assert.ok(world.notices.length > 0);
  assert.ok(world.notices.every((notice) => notice.message === "SEIZE.PutBack"));
});

/** A pf2e party on the viewed scene: its token, and its members' tokens (not at the table). */
const party = () => ({
  scenes: [{ id: "scene-1", tokens: [
    { id: "partyToken000001", actorId: "party", name: "The Party" },
    { id: "amiriToken000001", actorId: "amiri", name: "Amiri" },
    { id: "ezrenToken000001", actorId: "ezren", name: "Ezren" },
  ] }],
  viewing: "scene-1",
  actors: [{ id: "party", name: "The Party", type: "party", memberIds: ["amiri", "ezren"] },
           { id: "amiri", name: "Amiri", type: "character", hasPlayerOwner: true, system: {} },
           { id: "ezren", name: "Ezren", type: "character", hasPlayerOwner: true, system: {} }],
});

test("pf2e: a party's token added with Add selected tokens joins as its members", async () => {
  const { before } = fixtures["four-color"];
  await load({ system: SYSTEMS.pf2e, combatant: PF2eCombatant, served: before.combat, ...party() });
  await configure();
  await receive(before.view);
  globalThis.canvas.tokens.controlled = globalThis.canvas.tokens.placeables
    .filter((token) => token.id === "partyToken000001");
  await tracker().click("SEIZE.AddTokens");
  assert.deepEqual(world.commands.map((command) => command.member), [
    { id: "fvttamiriToken000001", name: "Amiri", kind: "hero" },
    { id: "fvttezrenToken000001", name: "Ezren", kind: "hero" },
  ]);
  assert.deepEqual(world.notices, []);
});

test("pf2e: a party already at the table stays one combatant: pf2e adds no members by hand for the sync to delete", async () => {
  const served = structuredClone(fixtures["four-color"].before.combat);
  Object.assign(served.combatants[1], { _id: "partyCombatant01", name: "THE PARTY · Q♥" });
  served.combatants[1].flags.seize.participant = "fvttpartyToken000001";
  await load({ system: SYSTEMS.pf2e, combatant: PF2eCombatant, served, ...party() });
  await configure();
  await receive(fixtures["four-color"].before.view);
  await receive(fixtures["four-color"].before.view, 2);
  const combat = theCombat();
  assert.deepEqual(combat.combatants.map((c) => c.id).sort(),
                   served.combatants.map((c) => c._id).sort());
  assert.ok(!world.log.some((entry) => entry.what === "delete"), "nothing added, nothing deleted");
  assert.deepEqual(world.notices, []);
});

for (const generation of [12, 13]) {
  test(`dnd5e on Foundry ${generation}: a combatant's d20 on Seize's Combat is Seize's Roll, with no dnd5e dialog`, async () => {
    const { before } = fixtures["from-tokens"];
    await load({ generation, system: SYSTEMS.dnd5e, tracker: TRACKERS.dnd5e,
                 served: before.combat, ...elsewhere() });
    await configure();
    await receive({ ...before.view, phase: "page_done" }); // between pages, Roll deals
    const combat = theCombat();
    assert.ok(combat.turns[0].actor, "a combatant with an actor, whose d20 dnd5e answers");
    await d20(combat.turns[0].id, generation);
    assert.deepEqual(world.commands, [{ type: "deal" }]);
    await receive(before.view, 2); // in the middle of a page, Roll says why not
    await d20(combat.turns[0].id, generation);
    assert.deepEqual(world.commands, [{ type: "deal" }]);
    assert.deepEqual(world.notices.map((notice) => notice.message),
                     ["SEIZE.Refuse.round.four-color"]);
    assert.deepEqual([world.dialogs, world.workflow], [[], []]);
  });
}
