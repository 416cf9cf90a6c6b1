import assert from "node:assert/strict";
import { test } from "node:test";

import { Bridge, isAdvance } from "../../server/vtt/roll20/bridge.mjs";
import { SYSTEMS, fixtures } from "./fixtures.mjs";

/** A stand-in for Roll20's Campaign model: get, save (fires change:turnorder), on. */
class Campaign {
  constructor() { this.attributes = { turnorder: "" }; this.saves = 0; this.listeners = []; }
  get(key) { return this.attributes[key]; }
  save(changes) {
    this.saves += 1;
    Object.assign(this.attributes, changes);
    for (const listener of this.listeners) listener();
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

test("an advance is the first entry moved to the end, and nothing else", () => {
  assert.equal(isAdvance([1, 2, 3], [2, 3, 1]), true);
  assert.equal(isAdvance([1, 2, 3], [3, 1, 2]), false);
  assert.equal(isAdvance([1], [1]), false);
});
