import assert from "node:assert/strict";
import { test } from "node:test";

import {
  TURN, elected, parseLink, participants, places, roomTable, says, known, visibilityCommands,
  wanted,
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

test("the GM's hiding and showing here count as done until the view has them", () => {
  const view = { present: new Set(["jena", "guard"]), hidden: new Set() };
  const seen = new Map([["j", true], ["g", true]]);
  const underway = new Map();
  // The GM hides the Guard's token: a hide goes, and lands at 8.
  const hiding = visibilityCommands([token("j", "jena"), token("g", "guard", { visible: false })],
                                    seen, known(view, 7, underway));
  assert.deepEqual(hiding, [{ type: "hide", participant: "guard" }]);
  underway.set("guard", { hidden: true, landed: 8 });
  // Shown again before the view of 8 came: the view of 7 alone would make that nothing (the
  // Guard not hidden there), and then the map would hide the token as the news came.
  assert.deepEqual([...known(view, 7, underway).hidden], ["guard"]);
  const showing = visibilityCommands([token("j", "jena"), token("g", "guard")], seen,
                                     known(view, 7, underway));
  assert.deepEqual(showing, [{ type: "reveal", participant: "guard" }]);
  underway.set("guard", { hidden: false, landed: Infinity }); // on its way, no answer yet
  // The view of 8 (the Guard hidden) comes before the reveal's: the token is not to be hidden.
  const eight = { present: view.present, hidden: new Set(["guard"]) };
  assert.deepEqual([...known(eight, 8, underway).hidden], []);
  underway.get("guard").landed = 9;
  assert.deepEqual([...known(eight, 8, underway).hidden], []);
  assert.equal(underway.size, 1);
  // The view of 9 has it: the command is done, and what the view says goes.
  assert.deepEqual([...known(view, 9, underway).hidden], []);
  assert.equal(underway.size, 0);
  assert.deepEqual([...known(eight, 10, underway).hidden], ["guard"]);
});

const ORIGIN = "https://seize.example";

test("the room's table address is taken only as one of this server's tables, holding nothing else", () => {
  const good = { server: ORIGIN, table: "0123456789ab" };
  assert.equal(roomTable(undefined, ORIGIN), null);
  assert.deepEqual(roomTable(good, ORIGIN), { address: good });
  assert.deepEqual(roomTable(good, ORIGIN, "0123456789ab"), { address: good });
  const cases = [
    [null, "not a table's address"],
    ["https://evil.example/console/0123456789ab#token=x", "not a table's address"],
    [[ORIGIN, "0123456789ab"], "not a table's address"],
    [{ server: ORIGIN }, "not a table's address"],
    [{ server: ORIGIN, table: 12 }, "not a table's address"],
    [{ server: ORIGIN, table: "../../api/tables" }, "not a table's address"],
    [{ server: ORIGIN, table: "<script>alert(1)</script>" }, "not a table's address"],
    [{ server: ORIGIN, table: "0123456789AB" }, "not a table's address"],
    [{ server: `${ORIGIN}/`, table: "0123456789ab" }, "another server"],
    [{ server: "https://evil.example", table: "0123456789ab" }, "another server"],
    [{ server: "javascript:alert(1)", table: "0123456789ab" }, "another server"],
    [{ ...good, token: "abc" }, "more than a table's address"],
    [{ ...good, link: `${ORIGIN}/console/0123456789ab#token=abc` }, "more than a table's address"],
  ];
  for (const [value, rule] of cases) {
    const found = roomTable(value, ORIGIN);
    assert.ok(found && "problem" in found && found.problem.includes(rule),
              `${JSON.stringify(value)}: ${JSON.stringify(found)}`);
  }
  assert.match(roomTable(good, ORIGIN, "ba9876543210").problem, /another table/);
});

/** A small seeded generator (mulberry32): the same values on every run. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Any JSON value a player could write, biased towards ones that look like an address. */
function anyValue(next, depth = 0) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const strings = [ORIGIN, "https://evil.example", "0123456789ab", "fedcba987654", "",
                   "<img src=x onerror=alert(1)>", "0123456789abc", "token=abc", "ffffffffffff"];
  const kinds = depth > 2 ? ["string", "number", "null", "bool"]
    : ["string", "number", "null", "bool", "array", "object", "address", "address"];
  switch (pick(kinds)) {
    case "string": return pick(strings);
    case "number": return Math.floor(next() * 1e6);
    case "null": return null;
    case "bool": return next() < 0.5;
    case "array": return Array.from({ length: Math.floor(next() * 3) }, () => anyValue(next, depth + 1));
    case "object": return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) },
      () => [pick(["server", "table", "token", "link", "__proto__", "x"]), anyValue(next, depth + 1)]));
    default: {
      const value = { server: pick([ORIGIN, ...strings]), table: pick(strings) };
      if (next() < 0.3) value[pick(["token", "gm", "link"])] = anyValue(next, depth + 1);
      return value;
    }
  }
}

test("whatever a player writes there, only an address of this server's own table comes out", () => {
  const next = random(20261203);
  const problems = new Set();
  let addresses = 0;
  for (let n = 0; n < 5000; n += 1) {
    const value = anyValue(next);
    const mine = next() < 0.5 ? "0123456789ab" : null;
    const found = roomTable(value, ORIGIN, mine);
    assert.ok(found, JSON.stringify(value)); // only undefined says nothing
    if ("address" in found) {
      addresses += 1;
      assert.deepEqual(Object.keys(value).sort(), ["server", "table"]);
      assert.deepEqual(found.address, { server: ORIGIN, table: value.table });
      assert.match(found.address.table, /^[0-9a-f]{12}$/);
      if (mine) assert.equal(found.address.table, mine);
    } else {
      problems.add(found.problem);
    }
  }
  assert.ok(addresses > 20, `${addresses} addresses generated`);
  // A handful of fixed sentences: none ever carries what the player wrote.
  assert.equal(problems.size, 4, [...problems].join("\n"));
});
