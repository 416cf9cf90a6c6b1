import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Bridge, Election, LOCK, advanceKey, entryKey, identify, judge, linkedTable, mayAsk, rememberLink,
} from "../../server/vtt/roll20/bridge.mjs";
import { SYSTEMS, fixtures, until } from "./fixtures.mjs";

/** A stand-in for Roll20's Campaign model (Roll20 cannot run here): get, save (fires
 * change:turnorder when the turn order changes), on. */
class Campaign {
  constructor() {
    this.attributes = { turnorder: "", initiativepage: false };
    this.saves = 0;
    this.listeners = [];
  }
  get(key) { return this.attributes[key]; }
  save(changes) {
    if ("turnorder" in changes) this.saves += 1;
    Object.assign(this.attributes, changes);
    if ("turnorder" in changes) for (const listener of this.listeners) listener();
  }
  on(event, listener) { if (event === "change:turnorder") this.listeners.push(listener); }
}

/** A clock the tests move, for the leases of the election. */
const clock = () => {
  let at = 1_000_000;
  return { now: () => at, pass: (ms) => { at += ms; } };
};

function bridge(system, moment = "before") {
  const campaign = new Campaign();
  const sent = [];
  const time = clock();
  let served = fixtures[system][moment];
  const made = new Bridge({
    campaign, view: () => served.view, turnorder: async () => served.turnorder,
    send: async (command) => { sent.push(command); },
  });
  campaign.on("change:turnorder", () => made.changed());
  return { made, campaign, sent, time, serve: (next) => { served = fixtures[system][next]; } };
}

for (const system of SYSTEMS) {
  test(`${system}: the turn order is written, its own write is not answered`, async () => {
    const { made, campaign, sent } = bridge(system);
    await made.refresh();
    assert.deepEqual(JSON.parse(campaign.get("turnorder")), fixtures[system].before.turnorder);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sent, []);
    await made.refresh(); // unchanged: not saved again
    assert.equal(campaign.saves, 1);
  });
}

test("the GM's next in Roll20 becomes the engine's next, then the new order", async () => {
  const { made, campaign, sent, serve, time } = bridge("four-color");
  await made.refresh();
  time.pass(5000);
  const [first, ...rest] = JSON.parse(campaign.get("turnorder"));
  serve("after");
  campaign.attributes.turnorder = JSON.stringify([...rest, first]);
  await made.changed();
  assert.deepEqual(sent, [{ type: "next_panel" }]);
  assert.deepEqual(JSON.parse(campaign.get("turnorder")), fixtures["four-color"].after.turnorder);
});

test("any other change in Roll20 is put back to the engine's order", async () => {
  const { made, campaign, sent, time } = bridge("megatraveller-rcs", "after");
  await made.refresh();
  time.pass(5000);
  const entries = JSON.parse(campaign.get("turnorder"));
  campaign.attributes.turnorder = JSON.stringify([...entries].reverse());
  await made.changed();
  assert.deepEqual(sent, []);
  assert.deepEqual(JSON.parse(campaign.get("turnorder")), entries);
});

test("writes land in the order they were asked for, however long each fetch takes", async () => {
  const campaign = new Campaign();
  const { before, after } = fixtures["megatraveller-rcs"];
  assert.notDeepEqual(before.turnorder, after.turnorder);
  const served = [[before.turnorder, 30], [after.turnorder, 0]];
  const made = new Bridge({
    campaign, view: () => before.view, send: async () => {},
    turnorder: async () => {
      const [entries, ms] = served.shift();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return entries;
    },
  });
  const landed = [];
  campaign.on("change:turnorder", () => landed.push(JSON.parse(campaign.get("turnorder"))));
  await Promise.all([made.refresh(), made.refresh()]);
  assert.deepEqual(landed, [before.turnorder, after.turnorder]);
});

test("the turn order is opened for the players once there is one", async () => {
  const { made, campaign } = bridge("megatraveller-rcs");
  assert.equal(campaign.get("initiativepage"), false);
  await made.refresh();
  assert.equal(campaign.get("initiativepage"), true);
});

/** A stand-in for the browser's localStorage. */
const storage = () => {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value) };
};

test("a game's link is kept per campaign, and only a GM is asked for one", () => {
  const stored = storage();
  assert.equal(mayAsk(stored, { campaign: "111", isGm: false }), false);
  assert.equal(mayAsk(stored, { campaign: "", isGm: true }), false);
  assert.equal(mayAsk(stored, { campaign: undefined, isGm: true }), false);
  assert.equal(mayAsk(stored, { campaign: "111", isGm: true }), true);
  rememberLink(stored, "111", { table: "t1", token: "gm-token" });
  rememberLink(stored, "222", null); // the GM declined: never asked again, never linked
  assert.deepEqual(linkedTable(stored, "111"), { table: "t1", token: "gm-token" });
  assert.equal(linkedTable(stored, "222"), null);
  assert.equal(linkedTable(stored, "333"), null);
  assert.equal(mayAsk(stored, { campaign: "222", isGm: true }), false);
  stored.setItem("seize:campaign:444", "{not json");
  assert.equal(linkedTable(stored, "444"), null);
});

test("an advance is Seize's current moved to the end, the one after it now current", () => {
  const e = (seize) => ({ id: "-1", pr: "", custom: "Goblin", _pageid: "", seize });
  const other = { id: "marker", pr: -1, custom: "", _pageid: "" };
  assert.equal(judge([e("1"), e("2"), e("3")], [e("2"), e("3"), e("1")]), "next");
  assert.equal(judge([e("1"), e("2"), e("3")], [e("2"), e("3"), other, e("1")]), "next");
  assert.equal(judge([e("1"), e("2"), e("3")], [e("2"), e("3"), e("1"), other]), "moved",
               "Roll20's Next moves the current to the very end");
  assert.equal(judge([e("1"), e("2"), e("3")], [other, e("2"), e("3"), e("1")]), "moved",
               "someone else is current: no Next of Seize's");
  assert.equal(judge([e("1"), e("2"), e("3")], [e("3"), e("1"), e("2")]), "moved");
  assert.equal(judge([e("1"), e("2"), e("3")], [e("2"), e("3")]), "moved");
  assert.equal(judge([e("1"), e("2"), e("3")], [other, e("1"), e("2"), e("3")]), "");
  assert.equal(judge([e("1")], [e("1")]), "");
});

test("entries are known by the key Seize wrote in them, else by token, or text and value", () => {
  const before = [{ id: "-1", pr: "K♠", custom: "V1", _pageid: "", seize: "KS" },
                  { id: "tok2", pr: "3", custom: "", _pageid: "p" }];
  // Written back by Roll20 or a script: other key order, pr a number, the page id dropped.
  const after = [{ custom: "", pr: 3, id: "tok2" }, { _pageid: "", custom: "V1", id: "-1", pr: "K♠" }];
  assert.notEqual(JSON.stringify([before[1], before[0]]), JSON.stringify(after));
  assert.equal(judge(before, after), "next");
  assert.deepEqual(identify(before, after), [1, 0]);
  assert.equal(entryKey(before[0]), "seize:KS");
  assert.equal(entryKey(after[1]), "-1:V1");
  // Two Goblins of one name and value are two entries, told apart by their keys.
  const goblin = (seize) => ({ id: "-1", pr: "7", custom: "Goblin", _pageid: "", seize });
  assert.deepEqual(identify([goblin("g1"), goblin("g2")], [goblin("g2"), goblin("g1")]), [1, 0]);
  assert.deepEqual(identify([goblin("g1")], [{ ...goblin("gone") }, { ...goblin("g1") }]), [-1, 0]);
});

/** The server's Idempotency-Key: a second command with a key already seen is a retry. */
const server = () => {
  const seen = new Map();
  const applied = [];
  return {
    applied,
    send: async (command, key) => {
      assert.ok(key === undefined || key.length <= 200, "a key the server takes");
      if (key === undefined || !seen.has(key)) {
        seen.set(key, command);
        applied.push(command);
      }
    },
  };
};

/** A GM's tab in a campaign: its election and its bridge, on the campaign's change events. */
function tab(campaign, name, time, seize, served, elect = true, seq = () => 7) {
  const election = new Election({ campaign, tab: name, now: time.now, ttl: 15000 });
  const made = new Bridge({
    campaign, view: () => served().view, turnorder: async () => served().turnorder,
    send: seize.send, table: "t1", seq,
    election: elect ? election : { leads: () => true },
  });
  campaign.on("change:turnorder", () => made.changed());
  return { election, made };
}

test("two GM tabs on one campaign: one bridge writes, and one command goes per advance", async () => {
  const campaign = new Campaign();
  const time = clock();
  const seize = server();
  let moment = "before";
  let seq = 7; // the table's sequence both tabs follow
  const served = () => fixtures["four-color"][moment];
  const a = tab(campaign, "tab-a", time, seize, served, true, () => seq);
  const b = tab(campaign, "tab-b", time, seize, served, true, () => seq);
  assert.equal(a.election.tick(), true);
  assert.equal(b.election.tick(), false);
  await Promise.all([a.made.refresh(), b.made.refresh()]);
  assert.equal(campaign.saves, 1, "the turn order written once");
  time.pass(5000);
  const [first, ...rest] = JSON.parse(campaign.get("turnorder"));
  moment = "after";
  campaign.save({ turnorder: JSON.stringify([...rest, first]) }); // a GM presses Next
  await until(() => seize.applied.length >= 1, "the GM's Next never reached Seize");
  assert.deepEqual(seize.applied, [{ type: "next_panel" }]);
  seq = 9; // the Panel played, and the view after it
  // Tab A is closed: its lease runs out and tab B takes over.
  time.pass(20000);
  assert.equal(b.election.tick(), true);
  assert.equal(a.election.leads(), false);
  await b.made.refresh();
  time.pass(5000);
  const [again, ...others] = JSON.parse(campaign.get("turnorder"));
  campaign.save({ turnorder: JSON.stringify([...others, again]) });
  await until(() => seize.applied.length >= 2, "the second Next never reached Seize");
  assert.deepEqual(seize.applied, [{ type: "next_panel" }, { type: "next_panel" }]);
  b.election.release();
  assert.equal(campaign.get(LOCK), "");
});

test("two bridges that both see one advance send the same key: the second is a retry", async () => {
  const campaign = new Campaign();
  const time = clock();
  const seize = server();
  let moment = "before";
  const served = () => fixtures["four-color"][moment];
  const a = tab(campaign, "tab-a", time, seize, served, false);
  const b = tab(campaign, "tab-b", time, seize, served, false);
  await a.made.refresh();
  await b.made.refresh();
  time.pass(5000);
  const [first, ...rest] = JSON.parse(campaign.get("turnorder"));
  moment = "after";
  campaign.save({ turnorder: JSON.stringify([...rest, first]) });
  await until(() => seize.applied.length >= 1, "the GM's Next never reached Seize");
  assert.deepEqual(seize.applied, [{ type: "next_panel" }]);
  const order = fixtures["four-color"].before.turnorder;
  assert.equal(advanceKey("t1", 7, order), advanceKey("t1", 7, structuredClone(order).map(
    (e) => ({ ...e, pr: String(e.pr) }))));
  assert.notEqual(advanceKey("t1", 7, order), advanceKey("t1", 8, order));
});
