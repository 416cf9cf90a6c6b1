// Seize for Foundry VTT: follows a Seize table and keeps one Combat of its own in the table's
// order. Only the active GM's client talks to Seize; everyone else follows Foundry's own sync.
// What it writes is the table's *public* order, since every player's client holds the combat
// document: no secret card, hidden QR or Score ever reaches it. It creates, updates and deletes
// only in the Combat it created for the table (flagged ``flags.seize.table``): a GM's own
// encounters are never touched.

import { controlsFor, joinsFor } from "./controls.mjs";
import { nextCommand } from "./engine.mjs";
import { Link } from "./link.mjs";
import {
  Queue, byInitiative, combatData, isOwnWrite, movesForward, planCombat, seizeTableOf, tokenOf,
  turnIn, writeOptions,
} from "./sync.mjs";

/**
 * @typedef {import("./sync.mjs").Dialect} Dialect
 * @typedef {import("./sync.mjs").DialectCombatant} DialectCombatant
 * @typedef {import("./sync.mjs").Position} Position
 * @typedef {import("./controls.mjs").View} View
 * @typedef {import("./controls.mjs").Control} Control
 * @typedef {"server" | "table" | "token"} Key
 */

const ID = "seize";
/** @type {Link | null} */
let link = null;
/** What the link was opened with: it is reopened only when that changes. */
let linkedWith = "";
/** @type {View | null} */
let view = null;
/**
 * The round and turn this client last wrote, to tell a GM's Next Turn from other changes.
 * @type {Position | null}
 */
let written = null;
/**
 * The options of every write: Foundry passes options it does not know through to the hooks,
 * which is how the module recognises its own writes (its types know only Foundry's own).
 * @type {{}}
 */
const OWN_WRITE = writeOptions({ turnEvents: false });
/** Every write and every command, one at a time. */
const queue = new Queue();
/** Whether a sync is queued and not yet started (one is enough: it reads the latest). */
let syncQueued = false;

/** @param {Key} key */
const setting = (key) => String(game.settings?.get(ID, key) ?? "");
/** @param {string} key */
const localize = (key) => game.i18n?.localize(key) ?? key;

Hooks.once("init", () => {
  // The GM token is a credential: world settings reach every player's client, so it lives in
  // the user's own settings (v13) or this browser (v12), never the world's.
  const tokenScope = (game.release?.generation ?? 12) >= 13 ? "user" : "client";
  for (const [key, scope] of /** @type {const} */ ([["server", "world"], ["table", "world"],
                                                    ["token", tokenScope]])) {
    game.settings?.register(ID, key, {
      name: localize(`SEIZE.Settings.${key}.Name`),
      hint: localize(`SEIZE.Settings.${key}.Hint`),
      // Foundry 13's "user" scope (CONST.SETTING_SCOPES.USER) is newer than the types' union.
      scope: /** @type {"world" | "client"} */ (scope), config: true, type: String, default: "",
      onChange: () => connect(),
    });
  }
  guardSystemSort();
});
Hooks.once("ready", () => connect());
// Who the active GM is may change as users come and go.
Hooks.on("userConnected", () => connect());

/**
 * Some systems read ``combatant.actor`` in their sort, which fails on a combatant with no actor
 * (a participant not joined from a token). In Seize's Combats a pair of which one has no actor
 * is put in Foundry's own order instead; the system sorts every other pair its way. Installed on
 * every client, since every client sorts the tracker.
 */
function guardSystemSort() {
  const System = CONFIG.Combat.documentClass;
  class SeizeCombat extends System {
    /**
     * Called unbound (``turns.sort(this._sortCombatants)``): the Combat is the combatant's parent.
     * @param {Combatant.Implementation} a
     * @param {Combatant.Implementation} b
     */
    _sortCombatants(a, b) {
      if (seizeTableOf(a.parent) && !(a.actor && b.actor)) return byInitiative(a, b);
      return super._sortCombatants(a, b);
    }
  }
  // Foundry's types describe the configured class as generic over its subtypes; this subclass
  // keeps every subtype of the system's class.
  CONFIG.Combat.documentClass = /** @type {typeof System} */ (/** @type {unknown} */ (SeizeCombat));
}

/**
 * Whether this client is the one that talks to Seize: Foundry's own active GM
 * (``game.users.activeGM``, on Foundry 12 and 13 alike), so exactly one client is elected.
 */
function isActiveGm() {
  return Boolean(game.user && game.users?.activeGM?.id === game.user.id);
}

function connect() {
  const [server, table, token] = /** @type {Key[]} */ (["server", "table", "token"]).map(setting);
  const wanted = isActiveGm() && server && table ? `${server} ${table} ${token}` : "";
  if (wanted === linkedWith) return;
  link?.close();
  link = null;
  linkedWith = wanted;
  if (!wanted) return;
  if (!token) {
    ui.notifications?.warn(localize("SEIZE.NoToken"));
    return;
  }
  link = new Link({
    server, table, token,
    onMessage: (message) => {
      if (!message.view) return;
      view = /** @type {View} */ (message.view);
      requestSync();
      ui.combat?.render();
    },
  }).open();
}

/**
 * @param {string} path
 * @param {RequestInit & {headers?: Record<string, string>}} [init]
 */
function api(path, init = {}) {
  return fetch(new URL(path, setting("server")), {
    ...init,
    headers: { Authorization: `Bearer ${setting("token")}`, "Content-Type": "application/json",
               ...init.headers },
  });
}

function requestSync() {
  if (syncQueued) return;
  syncQueued = true;
  queue.run(async () => {
    syncQueued = false;
    await sync();
  }).catch((error) => console.error("Seize | sync failed", error));
}

/** The Combat Seize keeps for ``table``, found by its flag (so also after a reload). */
function seizeCombat(/** @type {string} */ table) {
  return game.combats?.find((combat) => seizeTableOf(combat) === table);
}

async function sync() {
  const table = setting("table");
  const answer = await api(`/api/tables/${encodeURIComponent(table)}/foundry/combat?as=public`);
  const dialect = /** @type {Dialect} */ (await answer.json());
  const combat = seizeCombat(table) ?? await createCombat(table);
  if (!combat) return;
  const existing = [...combat.combatants.entries()].map(([id, c]) => ({
    _id: id, name: c.name, initiative: c.initiative, hidden: c.hidden, defeated: c.defeated,
    flags: { seize: c.flags.seize },
  }));
  const plan = planCombat(existing, dialect);
  if (plan.delete.length) {
    await combat.deleteEmbeddedDocuments("Combatant", plan.delete, OWN_WRITE);
  }
  if (plan.create.length) {
    await combat.createEmbeddedDocuments("Combatant", plan.create.map(withToken),
                                         { ...OWN_WRITE, keepId: true });
  }
  if (plan.update.length) {
    await combat.updateEmbeddedDocuments("Combatant", plan.update, OWN_WRITE);
  }
  const position = { round: dialect.round, turn: turnIn(combat.setupTurns(), dialect) };
  if (combat.round !== position.round || combat.turn !== position.turn) {
    await combat.update(position, OWN_WRITE);
  }
  written = position;
}

/**
 * Seize's Combat for ``table``: not tied to a scene, so it follows the GM everywhere, and made
 * the active encounter only when no other is, so that no GM's encounter is deactivated.
 * @param {string} table
 */
function createCombat(table) {
  const active = !game.combats?.some((combat) => combat.active);
  return CONFIG.Combat.documentClass.create({ ...combatData(table), scene: null, active },
                                            OWN_WRITE);
}

/**
 * A participant joined from a token gets that token and its actor, so that a system's sort
 * and sheet find an actor.
 * @param {DialectCombatant} combatant
 */
function withToken(combatant) {
  const tokenId = tokenOf(combatant.flags.seize.participant);
  const scene = tokenId ? game.scenes?.find((s) => s.tokens.has(tokenId)) : undefined;
  const token = tokenId ? scene?.tokens.get(tokenId) : undefined;
  if (!scene || !token) return combatant;
  return { ...combatant, tokenId, sceneId: scene.id, actorId: token.actorId };
}

/** @param {Record<string, unknown>} command */
async function send(command) {
  const table = encodeURIComponent(setting("table"));
  const answer = await api(`/api/tables/${table}/commands`, {
    method: "POST", body: JSON.stringify(command),
    headers: { "Idempotency-Key": foundry.utils.randomID(16) },
  });
  if (!answer.ok) ui.notifications?.warn(`Seize: ${(await answer.json()).message}`);
}

/**
 * A change someone made to Seize's Combat: a turn or round moved forward (any GM's Next Turn) is
 * the engine's "next" where it has one; everything else (an initiative edited, a combatant added
 * or removed, Previous Turn) is put back to Seize's order. The module's own writes are ignored.
 * @param {Combat.Implementation | null | undefined} combat
 * @param {object} options
 */
function changedByHand(combat, options) {
  return Boolean(link) && !isOwnWrite(options) && seizeTableOf(combat) === setting("table");
}

Hooks.on("updateCombat", (combat, changes, options) => {
  if (!changedByHand(combat, options) || !("turn" in changes || "round" in changes)) return;
  const command = written && view && movesForward(written, changes) ? nextCommand(view) : null;
  if (command) queue.run(() => send(command)).catch((error) => console.error("Seize |", error));
  requestSync();
});
Hooks.on("createCombatant", (combatant, options) => {
  if (changedByHand(combatant.parent, options)) requestSync();
});
Hooks.on("updateCombatant", (combatant, _changes, options) => {
  if (changedByHand(combatant.parent, options)) requestSync();
});
Hooks.on("deleteCombatant", (combatant, options) => {
  if (changedByHand(combatant.parent, options)) requestSync();
});

Hooks.on("renderCombatTracker", (_app, html) => {
  if (!link || !view) return;
  const root = html instanceof HTMLElement ? html : html[0];
  root.querySelector(".seize-controls")?.remove();
  const bar = document.createElement("div");
  bar.className = "seize-controls";
  /** @type {(Control | {label: string, join: true})[]} */
  const controls = [...controlsFor(view), { label: localize("SEIZE.AddTokens"), join: true }];
  for (const control of controls) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = control.label;
    button.addEventListener("click", () => {
      const done = "join" in control ? joinSelected() : run(control);
      done.catch((error) => console.error("Seize |", error));
    });
    bar.append(button);
  }
  root.prepend(bar);
});

async function joinSelected() {
  if (!view) return;
  const tokens = (canvas?.tokens?.controlled ?? []).map((token) => ({
    id: token.id, name: token.name, hasPlayerOwner: token.actor?.hasPlayerOwner ?? false,
  }));
  for (const command of joinsFor(view.system, tokens)) await send(command);
}

/** @param {Control} control */
async function run(control) {
  const command = { ...control.command };
  if (control.ask) {
    const answers = await ask(control.label, control.ask);
    if (!answers) return;
    Object.assign(command, answers);
  }
  await send(command);
}

/**
 * Asks for a command's free-text fields in one of Foundry's dialogs (its desktop app refuses
 * ``window.prompt``): DialogV2 from v13, Dialog on v12. Null when cancelled or left empty.
 * @param {string} title
 * @param {string[]} fields
 * @returns {Promise<Record<string, string> | null>}
 */
async function ask(title, fields) {
  const content = fields.map((field) => `<div class="form-group"><label>${
    foundry.utils.escapeHTML(localize(`SEIZE.Ask.${field}`))}</label><input type="text" name="${
    field}"></div>`).join("");
  /** @param {HTMLFormElement | HTMLElement | null | undefined} form */
  const read = (form) => Object.fromEntries(fields.map((field) => [
    field,
    /** @type {HTMLInputElement | null | undefined} */ (form?.querySelector(`[name="${field}"]`))
      ?.value.trim() ?? "",
  ]));
  /** @type {Record<string, string> | null | undefined} */
  let answers;
  if ((game.release?.generation ?? 12) >= 13) {
    /** @type {foundry.applications.api.DialogV2.ButtonCallback} */
    const callback = (_event, button) => read(button.form);
    answers = /** @type {Record<string, string> | null} */ (
      await foundry.applications.api.DialogV2.prompt({
        window: { title }, content, rejectClose: false, ok: { callback },
      }));
  } else {
    answers = await Dialog.prompt({
      title, content, rejectClose: false, callback: (html) => read(html[0] ?? html),
    });
  }
  if (!answers || fields.some((field) => !answers[field])) return null;
  return answers;
}
