// Seize for Foundry VTT: follows a Seize table and keeps this world's combat in its order.
// Only the elected GM's client talks to Seize; everyone else follows Foundry's own sync. What it
// writes into the combat is the table's *public* order, since every player's client holds the
// combat document: no secret card, hidden QR or Score ever reaches it.

import { controlsFor, joinsFor } from "./controls.mjs";
import { nextCommand } from "./engine.mjs";
import { Link } from "./link.mjs";
import { electedGm, isOwnWrite, planCombat, writeOptions } from "./sync.mjs";

const ID = "seize";
let link = null;
let view = null;

const setting = (key) => game.settings.get(ID, key);

Hooks.once("init", () => {
  for (const key of ["server", "table", "token"]) {
    game.settings.register(ID, key, {
      name: game.i18n.localize(`SEIZE.Settings.${key}.Name`),
      hint: game.i18n.localize(`SEIZE.Settings.${key}.Hint`),
      scope: "world", config: true, type: String, default: "", onChange: () => connect(),
    });
  }
});
Hooks.once("ready", () => connect());
Hooks.on("userConnected", () => connect()); // who the elected GM is may have changed

function connect() {
  link?.close();
  link = null;
  const [server, table, token] = ["server", "table", "token"].map(setting);
  if (!server || !table || !token) return;
  if (electedGm(game.users.contents) !== game.user.id) return;
  link = new Link({
    server, table, token,
    onMessage: (message) => {
      if (!message.view) return;
      view = message.view;
      sync().catch((error) => console.error("Seize | sync failed", error));
      ui.combat?.render();
    },
  }).open();
}

function api(path, init = {}) {
  return fetch(new URL(path, setting("server")), {
    ...init,
    headers: { Authorization: `Bearer ${setting("token")}`, "Content-Type": "application/json",
               ...init.headers },
  });
}

async function sync() {
  const table = encodeURIComponent(setting("table"));
  const dialect = await (await api(`/api/tables/${table}/foundry/combat?as=public`)).json();
  const combat = game.combat
    ?? await Combat.create({ scene: canvas.scene?.id ?? null, active: true }, writeOptions());
  const plan = planCombat(combat.combatants.contents.map((c) => c.toObject()), dialect);
  const options = writeOptions({ turnEvents: false });
  if (plan.delete.length) await combat.deleteEmbeddedDocuments("Combatant", plan.delete, options);
  if (plan.create.length) {
    await combat.createEmbeddedDocuments("Combatant", plan.create, { ...options, keepId: true });
  }
  if (plan.update.length) await combat.updateEmbeddedDocuments("Combatant", plan.update, options);
  if (combat.round !== plan.combat.round || combat.turn !== plan.combat.turn) {
    await combat.update(plan.combat, options);
  }
}

async function send(command) {
  const table = encodeURIComponent(setting("table"));
  const answer = await api(`/api/tables/${table}/commands`, {
    method: "POST", body: JSON.stringify(command),
    headers: { "Idempotency-Key": foundry.utils.randomID(16) },
  });
  if (!answer.ok) ui.notifications.warn(`Seize: ${(await answer.json()).message}`);
}

// Foundry → Seize: the GM advancing the tracker is the engine's "next" where it has one; any
// other change is put back to the engine's order. Our own writes are never sent back.
Hooks.on("updateCombat", (combat, changes, options, userId) => {
  if (!link || isOwnWrite(options) || userId !== game.user.id) return;
  if (!("turn" in changes || "round" in changes)) return;
  const command = view && nextCommand(view);
  (command ? send(command) : Promise.resolve()).then(() => sync());
});

Hooks.on("renderCombatTracker", (app, html) => {
  if (!link || !view) return;
  const root = html instanceof HTMLElement ? html : html[0];
  root.querySelector(".seize-controls")?.remove();
  const bar = document.createElement("div");
  bar.className = "seize-controls";
  for (const control of [...controlsFor(view), { label: game.i18n.localize("SEIZE.AddTokens"),
                                                 join: true }]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = control.label;
    button.addEventListener("click", () => run(control));
    bar.append(button);
  }
  root.prepend(bar);
});

async function run(control) {
  if (control.join) {
    const tokens = canvas.tokens.controlled.map((token) => ({
      id: token.id, name: token.name, hasPlayerOwner: token.actor?.hasPlayerOwner ?? false,
    }));
    for (const command of joinsFor(view.system, tokens)) await send(command);
    return;
  }
  const command = { ...control.command };
  for (const field of control.ask ?? []) {
    const answer = window.prompt(`${control.label}: ${field}`);
    if (!answer) return;
    command[field] = answer;
  }
  await send(command);
}
