import assert from "node:assert/strict";
import { test } from "node:test";

import { controlsFor, joinsFor } from "../../server/vtt/foundry/scripts/controls.mjs";
import { nextCommand } from "../../server/vtt/foundry/scripts/engine.mjs";
import { fixtures } from "./fixtures.mjs";

const labels = (view) => controlsFor(view).map((c) => c.label);

test("four-color: Next Panel while a page is in play, and undo", () => {
  const { view } = fixtures["four-color"].before;
  assert.deepEqual(labels(view), ["Next Panel", "Undo"]);
  assert.deepEqual(nextCommand(view), { type: "next_panel" });
});

test("megatraveller-rcs: a seize button for exactly those who may seize now", () => {
  const { before, after } = fixtures["megatraveller-rcs"];
  const seizes = (view) => controlsFor(view).filter((c) => c.command.type === "seize")
    .map((c) => c.command.character);
  assert.deepEqual(seizes(before.view), before.view.may_seize);
  assert.ok(before.view.may_seize.includes("sarge"));
  assert.deepEqual(seizes(after.view), after.view.may_seize);
  assert.deepEqual(nextCommand(after.view), { type: "end_turn", character: "sarge" });
});

test("awareness: act and wait for the declarer, pre-empt for the waiting while someone acts", () => {
  const { before, after } = fixtures.awareness;
  assert.ok(labels(before.view).includes(`Act (${before.view.declaring})`));
  const preempts = controlsFor(after.view).filter((c) => c.command.type === "react");
  const rolled = (source) => preempts.filter((c) => c.command.source === source);
  assert.deepEqual(rolled(undefined).map((c) => c.command.character), after.view.may_react);
  assert.deepEqual(rolled("device").map((c) => c.command.character), after.view.may_react);
  assert.ok(preempts.every((c) => c.command.to === after.view.exchange.act.character));
  assert.deepEqual(nextCommand(after.view), { type: "resolve" });
  assert.equal(nextCommand(before.view), null);
});

test("awareness: nothing is resolved while a pre-emption's d10 is awaited", () => {
  const { after } = fixtures.awareness;
  const waiting = { ...after.view, exchange: { ...after.view.exchange,
    pending: [{ type: "preemption_awaited", character: after.view.may_react[0],
                to: after.view.exchange.act.character, what: "fires", source: "device" }] } };
  assert.ok(labels(after.view).includes("Resolve"));
  assert.ok(!labels(waiting).includes("Resolve"));
  assert.equal(nextCommand(waiting), null);
});

test("selected tokens join as each system's participants", () => {
  const tokens = [{ id: "Ab12", name: "Valeros", hasPlayerOwner: true },
                  { id: "Cd34", name: "Goblin", hasPlayerOwner: false }];
  assert.deepEqual(joinsFor("four-color", tokens).map((c) => c.member.kind), ["hero", "villain"]);
  assert.deepEqual(joinsFor("megatraveller-rcs", tokens).map((c) => c.character.side),
                   ["players", "opposition"]);
  assert.equal(joinsFor("awareness", tokens)[0].sheet.id, "fvttAb12");
});
