// The Foundry module's glue, against stand-ins: Foundry itself cannot run here, so these globals
// stand in for the part of its API the module calls (Hooks, game.settings, game.users, Combat,
// ui, canvas) and for the browser's WebSocket and fetch. The module's own code is real.
import assert from "node:assert/strict";
import { test } from "node:test";

import { sortedLikeFoundry } from "../../server/vtt/foundry/scripts/sync.mjs";
import { fixtures } from "./fixtures.mjs";

const hooks = {};
const writes = [];
const posted = [];
const sockets = [];
const { before } = fixtures["four-color"];

class StandInCombat {
  constructor() { this.round = 0; this.turn = null; this.combatants = { contents: [] }; }
  async createEmbeddedDocuments(type, data, options) {
    writes.push(options);
    for (const d of data) this.combatants.contents.push({ ...structuredClone(d), toObject() { return this; } });
  }
  async updateEmbeddedDocuments(type, data, options) { writes.push(options); }
  async deleteEmbeddedDocuments(type, ids, options) { writes.push(options); }
  async update(data, options) { writes.push(options); Object.assign(this, data); }
}

class StandInSocket {
  constructor(url) { this.url = url; sockets.push(this); }
  receive(data) { this.onmessage({ data: JSON.stringify(data) }); }
  close() {}
}

Object.assign(globalThis, {
  Hooks: {
    on: (name, fn) => (hooks[name] ??= []).push(fn),
    once: (name, fn) => (hooks[name] ??= []).push(fn),
  },
  game: {
    settings: { register() {}, get: (id, key) => ({ server: "http://seize.test:8080", table: "t1", token: "gm-token" })[key] },
    i18n: { localize: (key) => key },
    users: { contents: [{ id: "b-gm", isGM: true, active: true }, { id: "a-gm", isGM: true, active: false }] },
    user: { id: "b-gm" },
    combat: null,
  },
  Combat: { create: async (data, options) => { writes.push(options); globalThis.game.combat = new StandInCombat(); return globalThis.game.combat; } },
  canvas: { scene: { id: "scene-1" }, tokens: { controlled: [] } },
  ui: { combat: { render() {} }, notifications: { warn() {} } },
  foundry: { utils: { randomID: () => "abcdefghijklmnop" } },
  WebSocket: StandInSocket,
  fetch: async (url, init = {}) => {
    if (init.method === "POST") posted.push(JSON.parse(init.body));
    const body = String(url).includes("/foundry/combat") ? before.combat : {};
    return { ok: true, json: async () => body };
  },
});

const call = (name, ...args) => { for (const fn of hooks[name] ?? []) fn(...args); };
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

await import("../../server/vtt/foundry/scripts/seize.mjs");
call("init");
call("ready");

test("the elected GM's client follows the table over one WebSocket", () => {
  assert.equal(sockets.length, 1);
  assert.match(sockets[0].url, /^ws:\/\/seize\.test:8080\/api\/tables\/t1\/ws\?token=gm-token/);
});

test("a view from Seize becomes Foundry's combat, in the engine's order, as its own writes", async () => {
  sockets[0].receive({ type: "view", seq: 9, view: before.view });
  await settle();
  const combat = globalThis.game.combat;
  const keys = sortedLikeFoundry(combat.combatants.contents).map((c) => c.flags.seize.key);
  assert.deepEqual(keys, before.combat.combatants.map((c) => c.flags.seize.key));
  assert.ok(writes.length > 0 && writes.every((options) => options.seizeSync === true));
});

test("the GM's next in Foundry's tracker is the engine's next; the module's own is not", async () => {
  const combat = globalThis.game.combat;
  call("updateCombat", combat, { turn: 1 }, { seizeSync: true }, "b-gm");
  call("updateCombat", combat, { turn: 1 }, {}, "someone-else");
  await settle();
  assert.deepEqual(posted, []);
  call("updateCombat", combat, { turn: 1 }, {}, "b-gm");
  await settle();
  assert.deepEqual(posted, [{ type: "next_panel" }]);
});
