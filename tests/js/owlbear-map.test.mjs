import assert from "node:assert/strict";
import { test } from "node:test";

import {
  TURN, elected, parseLink, participants, places, says, visibilityCommands, wanted,
} from "../../server/static/owlbear/map.js";

const token = (id, participant, extra = {}) => ({
  id, visible: true, metadata: participant ? { [TURN]: { participant } } : {}, ...extra,
});

test("a GM link and a player link are told apart; anything else is no link", () => {
  const base = "https://seize.example";
  assert.deepEqual(parseLink(" https://seize.example/console/t%201#token=abc ", base),
                   { table: "t 1", token: "abc", gm: true, server: base });
  assert.deepEqual(parseLink("/play/t1?token=xyz", base),
                   { table: "t1", token: "xyz", gm: false, server: base });
  for (const wrong of ["", "hello", "/console/t1", "/overlay/t1?token=o", "/play/t1#token=x"]) {
    assert.equal(parseLink(wrong, base), null, wrong);
  }
});

test("of the GMs in the room, the one whose connection sorts first writes", () => {
  const party = [{ connectionId: "b", role: "GM" }, { connectionId: "a", role: "PLAYER" }];
  assert.equal(elected("a", party), true); // a player sorting first does not count
  assert.equal(elected("c", party), false);
  assert.equal(elected("c", [{ connectionId: "a", role: "PLAYER" }]), true);
});

test("each participant's first place in the public order, and who acts", () => {
  const order = places({ turns: [
    { participant: "peter", placed: true, current: false },
    { participant: null, placed: true, current: false }, // an Element: no token
    { participant: "sue", placed: true, current: true },
    { participant: "peter", placed: true, current: false },
    { participant: "doc", placed: false, current: false },
  ] });
  assert.deepEqual(Object.fromEntries(order), {
    peter: { place: 1, acting: false }, sue: { place: 3, acting: true },
    doc: { place: null, acting: false },
  });
  const items = [token("t1", "sue"), token("t2", "ghost"), token("t3", null)];
  const want = wanted(items, order);
  assert.deepEqual(Object.fromEntries(want), {
    t1: { participant: "sue", place: 3, acting: true },
    t2: { participant: "ghost", place: null, acting: false }, // hidden, or gone: no place
  });
  assert.equal(says(items[0], want.get("t1")), false);
  assert.equal(says({ metadata: { [TURN]: want.get("t1") } }, want.get("t1")), true);
});

test("only a change of a linked token's visibility seen here is a command", () => {
  const table = participants({ characters: [{ id: "jena" }, { id: "guard" }],
                               hidden: ["guard"] });
  const seen = new Map();
  const first = [token("j", "jena", { visible: false }), token("g", "guard")];
  // First sight: the GM's earlier choices stand, whatever they are.
  assert.deepEqual(visibilityCommands(first, seen, table), []);
  const hidden = [token("j", "jena", { visible: false }), token("g", "guard", { visible: false })];
  assert.deepEqual(visibilityCommands(hidden, seen, table), []); // already hidden in Seize
  const shown = [token("j", "jena"), token("g", "guard")];
  assert.deepEqual(visibilityCommands(shown, seen, table), [
    { type: "reveal", participant: "guard" },
  ]);
  const again = [token("j", "jena", { visible: false }), token("g", "guard"),
                 token("x", "stranger", { visible: false })];
  seen.set("x", true);
  assert.deepEqual(visibilityCommands(again, seen, table), [
    { type: "hide", participant: "jena" },
  ]); // a token of someone not at the table means nothing
});
