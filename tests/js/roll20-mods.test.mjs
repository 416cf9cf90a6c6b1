// The Roll20 bridge beside Roll20's GroupInitiative and TurnMarker1 Mod scripts (tests/js/roll20-mods:
// stand-ins for the scripts, modelled from their source, and a Mod sandbox to run them in).
// Whatever the scripts do to the turn order, re-sorting it after a roll, moving their marker,
// skipping hidden tokens, never reaches Seize as a Next; the GM's own Next in Roll20 always does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";

import { Bridge } from "../../server/vtt/roll20/bridge.mjs";
import { fixtures } from "./fixtures.mjs";
import { groupInitiative } from "./roll20-mods/group-initiative.mjs";
import { Game, random } from "./roll20-mods/sandbox.mjs";
import { turnMarker } from "./roll20-mods/turn-marker.mjs";

/** Random MegaTraveller RCS orders as the server writes them (tests/server/vtt/roll20_orders.py),
 * written beside the fixtures by tests/server/vtt/test_vtt_javascript.py. */
const ORDERS = JSON.parse(readFileSync(
  join(dirname(process.env.SEIZE_FIXTURES ?? ""), "roll20-orders.json"), "utf8"));

/** Which of Seize's entries this is (its key, or what it shows). */
const ident = (entry) => entry.seize ?? [entry.id, entry.custom, String(entry.pr)].join("|");

/**
 * Seize's table and the bridge in the GM's page of ``game``: a table whose "next" ends the
 * current actor's turn (the token holder's, in RCS) and moves the order on by one.
 */
function bridged(game, entries) {
  const ours = new Set(entries.map(ident));
  const seize = { entries: structuredClone(entries), applied: [], keys: new Set() };
  const told = [];
  let busy = 0;
  const bridge = new Bridge({
    campaign: game.page,
    view: () => ({ system: "megatraveller-rcs", token: ident(seize.entries[0]), declared: false }),
    turnorder: async () => structuredClone(seize.entries),
    seq: () => seize.applied.length, // the table's sequence: one event per command here
    send: async (command, key) => {
      if (seize.keys.has(key)) return; // a retry
      seize.keys.add(key);
      seize.applied.push(command);
      seize.entries = [...seize.entries.slice(1), seize.entries[0]];
    },
    tell: (message) => told.push(message),
  });
  game.page.on("change:turnorder", () => {
    busy += 1;
    bridge.changed().catch((error) => game.errors.push(error)).finally(() => { busy -= 1; });
  });
  for (const entry of entries) {
    if (entry.id !== "-1") game.token(entry.custom, "objects", entry.id);
  }
  return {
    seize, told, bridge,
    settle: () => game.settle(() => busy),
    /** Seize's entries in the GM's turn order, in the order shown. */
    shown: () => game.order().map(ident).filter((key) => ours.has(key)),
    keys: () => seize.entries.map(ident),
  };
}

/** GroupInitiative's state as an install from before its schema 1.3 has it: upgraded to 1.3, it
 * gets ``preserveFirst: false`` (GroupInitiative.js 0.9.41, checkInstall). */
const upgraded = () => ({
  GroupInitiative: {
    version: 1.2, bonusStatGroups: [], savedTurnOrders: [],
    config: {
      rollType: "Individual-Roll", replaceRoll: false, dieSize: 20, diceCount: 1, maxDecimal: 2,
      diceCountAttribute: "", diceMod: "", autoOpenInit: true, sortOption: "Descending",
      announcer: "Partial",
    },
  },
});

test("the server's entries are no numbers to a sort, and each has its own key", () => {
  for (const order of [...ORDERS, fixtures["megatraveller-rcs"].before.turnorder]) {
    for (const entry of order) assert.ok(Number.isNaN(entry.pr - 0), `pr ${entry.pr}`);
    const keys = order.map((e) => e.seize);
    assert.ok(keys.every((k) => typeof k === "string" && k), "a key in every entry");
    assert.equal(new Set(keys).size, keys.length);
  }
});

/** Two characters at the start of a round: sorted by bare initiative, Seize's order moves on. */
const twoAtTheStart = (sortOption) => {
  const found = ORDERS.find((order) => {
    if (order.length !== 2 || order.some((e) => e.id !== "-1")) return false;
    const [a, b] = order.map((e) => parseInt(e.pr, 10));
    return sortOption === "Ascending" ? a > b : a < b;
  });
  assert.ok(found, "an order of two to sort");
  return found;
};

for (const install of ["new", "upgraded"]) {
  test(`GroupInitiative's rolls and sorts, each sort option (${install} install), are no Next`, async () => {
    for (const sortOption of ["Descending", "Ascending", "None"]) {
      const state = install === "upgraded" ? upgraded() : {};
      const game = new Game({ scripts: [groupInitiative], state, seed: 7 });
      await game.settle();
      state.GroupInitiative.config.sortOption = sortOption;
      const preserveFirst = state.GroupInitiative.config.preserveFirst;
      assert.equal(preserveFirst, install === "new", "upgraded installs keep preserveFirst off");
      const table = bridged(game, twoAtTheStart(sortOption));
      await table.bridge.refresh();
      await table.settle();
      const goblin = game.token("Goblin");
      game.command("!group-init", [goblin]);
      await table.settle();
      assert.ok(game.order().some((e) => e.id === goblin), "GroupInitiative rolled");
      game.command("!group-init --sort");
      await table.settle();
      assert.deepEqual(table.seize.applied, [], `${sortOption}: a sort is no Next`);
      assert.deepEqual(table.shown(), table.keys(), "Seize's order stands, first");
      game.pressNext();
      await table.settle();
      assert.equal(table.seize.applied.length, 1, "the GM's Next is");
      assert.deepEqual(table.shown(), table.keys());
    }
  });
}

test("TurnMarker1 skipping several hidden tokens at once is no Next, and does not loop", async () => {
  const game = new Game({ scripts: [groupInitiative, turnMarker], seed: 3 });
  await game.settle();
  assert.equal(game.context.state.TurnMarker.autoskipHidden, true, "TurnMarker's default");
  const entry = (seize, name, id) => ({ id, pr: `7${"\u2060"}`, custom: name, _pageid: "page-1", seize });
  const order = [entry("x", "Jena", "-tokx"), entry("a", "Scout", "-toka"),
                 entry("b", "Sniper", "-tokb"), entry("c", "Sarge", "-tokc")];
  const table = bridged(game, order);
  for (const hidden of ["-toka", "-tokb"]) game.objects.find((o) => o.id === hidden).set("layer", "gmlayer");
  await table.bridge.refresh();
  await table.settle();
  game.pressNext(); // Jena's turn ends: the Scout and the Sniper, on the GM's layer, are next
  await table.settle();
  assert.equal(table.seize.applied.length, 1, "the GM's Next, and nothing more");
  assert.ok(table.told.length >= 1, "the GM is told");
});

test("two Goblins: a drag between them is put back, the GM's Next is a Next", async () => {
  const game = new Game({ scripts: [], seed: 1 });
  const goblin = (seize) => ({ id: "-1", pr: `7${"\u2060"}`, custom: "Goblin", _pageid: "page-1", seize });
  const jena = { id: "-1", pr: `9${"\u2060"}`, custom: "Jena", _pageid: "page-1", seize: "jena" };
  const table = bridged(game, [goblin("g1"), jena, goblin("g2")]);
  await table.bridge.refresh();
  await table.settle();
  const [g1, j, g2] = game.order();
  game.page.save({ turnorder: JSON.stringify([j, g1, g2]) }); // the GM drags Jena up
  await table.settle();
  assert.deepEqual(table.seize.applied, []);
  assert.deepEqual(table.shown(), table.keys(), "put back");
  assert.equal(table.told.length, 1);
  game.page.save({ turnorder: JSON.stringify([j, g2, g1]) }); // Next, as Roll20 writes it
  await table.settle();
  assert.equal(table.seize.applied.length, 1);
  assert.deepEqual(table.shown(), ["jena", "g2", "g1"].map((key) => ident({ seize: key })));
});

test("no rewrite by GroupInitiative or TurnMarker1 is ever a Next; every GM's Next is", async () => {
  const dice = random(2026);
  const pick = (list) => list[Math.floor(dice() * list.length)];
  let sorts = 0;
  for (const [n, order] of ORDERS.entries()) {
    const state = dice() < 0.5 ? upgraded() : {};
    const scripts = dice() < 0.5 ? [groupInitiative, turnMarker] : [groupInitiative];
    const game = new Game({ scripts, state, seed: n + 1 });
    await game.settle();
    state.GroupInitiative.config.sortOption = pick(["Descending", "Ascending", "None"]);
    state.GroupInitiative.config.preserveFirst = dice() < 0.5;
    // TurnMarker1 as docs/roll20.md has it set up beside Seize: Auto Skip Hidden off.
    if (state.TurnMarker) state.TurnMarker.autoskipHidden = false;
    const table = bridged(game, order);
    await table.bridge.refresh();
    await table.settle();
    let presses = 0;
    for (let step = 0; step < 6; step += 1) {
      const action = pick(["roll", "sort", "reroll", "next", "next"]);
      if (action === "roll") game.command("!group-init", [game.token(pick(["Goblin", "Guard"]))]);
      if (action === "sort") game.command("!group-init --sort");
      if (action === "reroll") game.command("!group-init --reroll");
      if (action === "next") {
        game.pressNext();
        presses += 1;
      } else {
        sorts += 1;
      }
      await table.settle();
      const context = `order ${n}, ${action} at step ${step}: ${JSON.stringify(game.order())}`;
      assert.equal(table.seize.applied.length, presses, context);
      assert.deepEqual(table.shown(), table.keys(), context);
    }
  }
  assert.ok(sorts > 100, "enough of the scripts' rewrites");
});
