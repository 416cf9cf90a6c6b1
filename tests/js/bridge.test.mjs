import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Bridge, isAdvance, linkedTable, mayAsk, rememberLink,
} from "../../server/vtt/roll20/bridge.mjs";
import { SYSTEMS, fixtures } from "./fixtures.mjs";

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

function bridge(system, moment = "before") {
  const campaign = new Campaign();
  const sent = [];
  let served = fixtures[system][moment];
  const made = new Bridge({
    campaign, view: () => served.view, turnorder: async () => served.turnorder,
    send: async (command) => { sent.push(command); },
  });
  campaign.on("change:turnorder", () => made.changed());
  return { made, campaign, sent, serve: (next) => { served = fixtures[system][next]; } };
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
  const { made, campaign, sent, serve } = bridge("four-color");
  await made.refresh();
  const [first, ...rest] = JSON.parse(campaign.get("turnorder"));
  serve("after");
  campaign.attributes.turnorder = JSON.stringify([...rest, first]);
  await made.changed();
  assert.deepEqual(sent, [{ type: "next_panel" }]);
  assert.deepEqual(JSON.parse(campaign.get("turnorder")), fixtures["four-color"].after.turnorder);
});

test("any other change in Roll20 is put back to the engine's order", async () => {
  const { made, campaign, sent } = bridge("megatraveller-rcs", "after");
  await made.refresh();
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

test("an advance is the first entry moved to the end, and nothing else", () => {
  assert.equal(isAdvance([1, 2, 3], [2, 3, 1]), true);
  assert.equal(isAdvance([1, 2, 3], [3, 1, 2]), false);
  assert.equal(isAdvance([1], [1]), false);
});
