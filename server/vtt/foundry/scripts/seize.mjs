// Seize for Foundry VTT: follows a Seize table and keeps one Combat of its own in the table's
// order. Only the active GM's client talks to Seize; everyone else follows Foundry's own sync.
// What it writes is the table's *public* order, since every player's client holds the combat
// document: no secret card, hidden QR or Score ever reaches it. It creates, updates and deletes
// only in the Combat it created for the table (flagged ``flags.seize.table``): a GM's own
// encounters are never touched. That Combat is Seize's in every system: the tracker's controls
// on it send Seize's commands (or say why not) and never run the game system's own workflow
// (SWADE's card deal, pf2e's turn effects), and what the GM hides or marks defeated stays so.

import { controlsFor, joinsFor } from "./controls.mjs";
import { TermFaces, WAIT, named, ownerOf, registerMethod } from "./dice.mjs";
import { CONTROLS, commandFor, nextCommand, refusalFor, takeOutCommand } from "./engine.mjs";
import { Link, postCommand, problemOf } from "./link.mjs";
import {
  Queue, byInitiative, combatData, isOwnWrite, orderOf, planCombat, readTurnWrite, seizeTableOf,
  tokenOf, turnIn, writeOptions,
} from "./sync.mjs";

/**
 * @typedef {import("./sync.mjs").Dialect} Dialect
 * @typedef {import("./sync.mjs").DialectCombatant} DialectCombatant
 * @typedef {import("./sync.mjs").Written} Written
 * @typedef {import("./sync.mjs").Reorder} Reorder
 * @typedef {import("./controls.mjs").View} View
 * @typedef {import("./controls.mjs").Control} Control
 * @typedef {import("./engine.mjs").Control} TrackerControl
 * @typedef {import("./link.mjs").StopReason} StopReason
 * @typedef {import("./link.mjs").Rolled} Rolled
 * @typedef {{kind: "dice", id: string, sides: number, count: number}
 *          | {kind: "rolled", id: string, user: string, rolled: Rolled}} Relayed
 *   a player's dice request to the active GM's client, and its answer back
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
 * The round, the current combatant and the order this client last wrote, to tell a GM's Next
 * Turn from other changes by who it makes current.
 * @type {Written | null}
 */
let written = null;
/**
 * A reorder made by hand since Seize last moved (a row dragged, SWADE's Act Now): the ``turn``
 * write a system sends after it is read as part of it, never as Next.
 * @type {Reorder | null}
 */
let reorder = null;
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
/** The participants a system refused a combatant for, so the GM is told once, not every view. */
const refused = new Set();

/**
 * The GM token's setting, one per world: Foundry 12 keeps client settings in the browser
 * whatever the world, so a single key would send world A's token to world B's server.
 */
const tokenKey = () => /** @type {`token-${string}`} */ (`token-${game.world?.id ?? ""}`);
/** @param {Key} key */
const setting = (key) => String(game.settings?.get(ID, key === "token" ? tokenKey() : key) ?? "");
/** @param {string} key */
const localize = (key) => game.i18n?.localize(key) ?? key;
/**
 * Tell the GM, in the module's words.
 * @param {"info" | "warn" | "error"} level
 * @param {string} key
 * @param {Record<string, string>} [data]
 * @param {boolean} [permanent] stays until dismissed
 */
function notify(level, key, data, permanent = false) {
  const text = data ? game.i18n?.format(key, data) ?? key : localize(key);
  ui.notifications?.[level](text, permanent ? { permanent } : {});
}

Hooks.once("init", () => {
  // The GM token is a credential: world settings reach every player's client, so it lives in
  // this browser (a client setting), under a key of this world's own. Foundry 13's user scope
  // is kept in the world's Settings database, and neither its documentation nor its types say
  // that another user's client never receives another user's entry there, so it is not used.
  for (const [key, scope] of /** @type {const} */ ([["server", "world"], ["table", "world"],
                                                    [tokenKey(), "client"]])) {
    const label = key === tokenKey() ? "token" : key;
    game.settings?.register(ID, key, {
      name: localize(`SEIZE.Settings.${label}.Name`),
      hint: localize(`SEIZE.Settings.${label}.Hint`),
      scope, config: true, type: String, default: "",
      onChange: () => connect(),
    });
  }
  makeSeizesCombatSeizes();
  makeTheTrackersRollSeizes();
  registerMethod(CONFIG, "SEIZE.Dice.Method", (term, options) => tableFaces.face(term, options));
});
Hooks.once("ready", () => {
  // Foundry's server hands a package's socket handler the id of the user who emitted the
  // message, after the message (socketlib reads it so: src/socketlib.js, _onSocketReceived(
  // message, senderId), verified with Foundry 13): who asks is Foundry's word, never the
  // message's own.
  game.socket?.on(SOCKET, (/** @type {Relayed} */ message, /** @type {string} */ sender) =>
    relayed(message, sender));
  connect();
});
// Who the active GM is may change as users come and go.
Hooks.on("userConnected", () => connect());

/**
 * Seize's Combat is Seize's, in every system. The configured Combat class (the system's) is
 * extended so that, on a Combat flagged with a table:
 * - every control of the tracker (Next Turn, Next Round, Begin and End Combat, Roll and Reset
 *   Initiative, back a turn or a round) asks Seize instead of running the system's workflow;
 * - the system's ``_onUpdate`` (pf2e's start and end of turn, for one) is skipped: what moves
 *   the turn there is Seize, never a turn played in Foundry;
 * - a pair of which one has no actor (a participant not joined from a token) is sorted in
 *   Foundry's own order, since some systems read ``combatant.actor`` in their sort.
 * Every other Combat is the system's, untouched. Installed on every client.
 */
function makeSeizesCombatSeizes() {
  const System = CONFIG.Combat.documentClass;
  /** Foundry's own update handler, under every system's. */
  const core = /** @type {{_onUpdate(...args: unknown[]): void} | undefined} */ (
    /** @type {unknown} */ (globalThis.Combat?.prototype));
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

    /** @param {Parameters<Combat["_onUpdate"]>} args */
    _onUpdate(...args) {
      if (seizeTableOf(this) && core && core !== /** @type {unknown} */ (System.prototype)) {
        core._onUpdate.apply(this, args);
        return;
      }
      super._onUpdate(...args);
    }
  }
  for (const control of CONTROLS) {
    const own = /** @type {(this: Combat.Implementation, ...args: unknown[]) => Promise<unknown>} */ (
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (System.prototype))[control]);
    Object.defineProperty(SeizeCombat.prototype, control, {
      configurable: true, writable: true,
      /** @this {Combat.Implementation} @param {unknown[]} args */
      async value(...args) {
        if (!seizeTableOf(this)) return own.apply(this, args);
        await askSeize(this, control);
        return this;
      },
    });
  }
  // Foundry's types describe the configured class as generic over its subtypes; this subclass
  // keeps every subtype of the system's class.
  CONFIG.Combat.documentClass = /** @type {typeof System} */ (/** @type {unknown} */ (SeizeCombat));
}

/**
 * A combatant's own roll button in the tracker, on Seize's Combat, is Seize's Roll. dnd5e's
 * tracker (``CombatTracker5e._onCombatantControl``) answers that button with the actor's roll
 * dialog and rolls through the actor, never through the Combat's ``rollInitiative`` that Seize's
 * Combat answers: so the configured tracker class is extended at the button itself, the same
 * handler on Foundry 12 (``event.currentTarget``, ``data-control``) and 13 (``target``,
 * ``data-action``). Every other button, and every other Combat, is the system's.
 */
function makeTheTrackersRollSeizes() {
  const System = /** @type {typeof foundry.applications.sidebar.tabs.CombatTracker} */ (
    CONFIG.ui.combat);
  class SeizeCombatTracker extends System {
    /**
     * @param {PointerEvent} event
     * @param {foundry.applications.api.ApplicationV2.ActionTarget} target
     */
    async _onCombatantControl(event, target) {
      const button = target ?? /** @type {HTMLElement | null} */ (event.currentTarget);
      const action = button?.dataset.control || button?.dataset.action;
      const combat = this.viewed;
      if (action === "rollInitiative" && combat && seizeTableOf(combat)) {
        await askSeize(combat, "rollInitiative");
        return undefined;
      }
      return super._onCombatantControl(event, target);
    }
  }
  CONFIG.ui.combat = SeizeCombatTracker;
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
  view = null;
  linkedWith = wanted;
  if (!wanted) return;
  if (!token) {
    ui.notifications?.warn(localize("SEIZE.NoToken"));
    return;
  }
  const made = new Link({
    server, table, token,
    onMessage: (message) => {
      if (link !== made || !message.view) return;
      view = /** @type {View} */ (message.view);
      reorder = null;
      requestSync();
      ui.combat?.render();
    },
    onStop: (reason) => {
      if (link !== made) return;
      notify("error", `SEIZE.Stopped.${reason}`, undefined, true);
    },
  });
  link = made;
  made.open();
}

/** The module's channel between clients: a player's dice request goes to the active GM's. */
const SOCKET = `module.${ID}`;
/** Seconds a player's client waits for the GM's before rolling by itself: the request's own
 * wait, and time for the GM's client to pass it on. */
const RELAY_WAIT = WAIT + 15;
/** The faces the table's dice give the terms rolled with Seize's method (``dice.mjs``). */
const tableFaces = new TermFaces(async (sides, count) => {
  notify("info", "SEIZE.Dice.Roll", { dice: named(count, sides) });
  const rolled = isActiveGm() ? await askTable(game.user?.id ?? "", sides, count)
    : await askTheGm(sides, count);
  if (!rolled.faces) {
    notify("warn", `SEIZE.Dice.Unrolled.${rolled.why}`, { message: rolled.message ?? "" });
  }
  return rolled;
}, () => /** @type {string | undefined} */ (game.settings?.get("core", "rollMode")));
/** A player's requests waiting for the GM's client, by id: how each is answered, and its timer
 * for rolling by itself, cleared once the GM's client answers (a player's client that rolls
 * often keeps no pile of spent timers). @type {Map<string, {resolve: (rolled: Rolled) => void, timer: ReturnType<typeof setTimeout>}>} */
const relaying = new Map();

/**
 * Ask Seize for a user's dice, from the active GM's client (the one with the link).
 * @param {string} userId
 * @param {number} sides
 * @param {number} count
 * @returns {Promise<Rolled>}
 */
async function askTable(userId, sides, count) {
  const combat = seizeCombat(setting("table"));
  const owner = ownerOf(game.users?.get(userId), combat?.combatants.contents ?? []);
  if (!owner) return { faces: null, why: "refused", message: localize("SEIZE.Dice.NoOne") };
  if (!link) return { faces: null, why: "offline" };
  return link.roll({ owner, sides, count, wait: WAIT });
}

/**
 * A player's client asks the active GM's (Foundry's module socket): only that client talks to
 * Seize. No answer in ``RELAY_WAIT`` (no GM on line) and the player's client rolls by itself.
 * @param {number} sides
 * @param {number} count
 * @returns {Promise<Rolled>}
 */
function askTheGm(sides, count) {
  const id = foundry.utils.randomID();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (relaying.delete(id)) resolve({ faces: null, why: "offline" });
    }, RELAY_WAIT * 1000);
    relaying.set(id, { resolve, timer });
    game.socket?.emit(SOCKET, { kind: "dice", id, sides, count });
  });
}

/**
 * A message between the module's clients: a player's request, on the active GM's client, asked
 * for the dice of the user who sent it (a player's client cannot ask for another's dice by
 * naming them); its answer, on the player's, taken only from a GM's client.
 * @param {Relayed} message
 * @param {string} sender the id of the user whose client emitted it, as Foundry says
 */
function relayed(message, sender) {
  if (message.kind === "dice" && isActiveGm()) {
    const { id, sides, count } = message;
    askTable(sender, sides, count).then((rolled) => {
      game.socket?.emit(SOCKET, { kind: "rolled", id, user: sender, rolled });
    });
  } else if (message.kind === "rolled" && message.user === game.user?.id
             && game.users?.get(sender)?.isGM) {
    const waiting = relaying.get(message.id);
    if (!waiting) return;
    relaying.delete(message.id);
    clearTimeout(waiting.timer);
    waiting.resolve(message.rolled);
  }
}

/** A read of Seize's API with the GM token (commands go by ``send``). @param {string} path */
function api(path) {
  return fetch(new URL(path, setting("server")),
               { headers: { Authorization: `Bearer ${setting("token")}` } });
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

/** Bring Seize's Combat to the table's order. Every answer is checked before anything is written. */
async function sync() {
  const table = setting("table");
  const answer = await api(`/api/tables/${encodeURIComponent(table)}/foundry/combat?as=public`);
  if (!answer.ok) {
    const body = await answer.json().catch(() => null);
    notify("error", "SEIZE.SyncFailed", { status: String(answer.status),
                                          message: problemOf({ status: answer.status, body }) });
    return;
  }
  const dialect = /** @type {Dialect} */ (await answer.json());
  if (!Array.isArray(dialect?.combatants)) {
    notify("error", "SEIZE.SyncFailed", { status: String(answer.status), message: "?" });
    return;
  }
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
  if (plan.create.length) await createCombatants(combat, plan.create.map(withToken));
  if (plan.update.length) {
    await combat.updateEmbeddedDocuments("Combatant", plan.update, OWN_WRITE);
  }
  const position = { round: dialect.round, turn: turnIn(combat.setupTurns(), dialect) };
  if (combat.round !== position.round || combat.turn !== position.turn) {
    await combat.update(position, OWN_WRITE);
  }
  // A system may sort by the round (SWADE puts whoever is on Hold from an earlier round first):
  // the turn is found again in the order of the round just written.
  const turns = combat.setupTurns();
  const turn = turnIn(turns, dialect);
  if (combat.turn !== turn) await combat.update({ turn }, OWN_WRITE);
  written = { round: position.round, order: orderOf(turns),
              current: turn === null ? null : turns[turn]?.id ?? null };
}

/**
 * Create combatants through the Combatant class itself, as Foundry's own
 * ``createEmbeddedDocuments`` does underneath, so that no system's filter there (pf2e keeps
 * only tokens on the current canvas) drops a participant who joined from the console, a phone,
 * Roll20 or another scene. One a system still refuses (in its Combatant's ``_preCreate``) is
 * named to the GM, once.
 * @param {Combat.Implementation} combat
 * @param {DialectCombatant[]} wanted
 */
async function createCombatants(combat, wanted) {
  const Class = /** @type {{createDocuments(data: object[], operation: object): Promise<unknown>}} */ (
    /** @type {unknown} */ (CONFIG.Combatant.documentClass));
  const made = /** @type {{id: string | null}[] | undefined} */ (
    await Class.createDocuments(wanted, { ...OWN_WRITE, parent: combat, keepId: true }));
  const ids = new Set((made ?? []).map((combatant) => combatant.id));
  const missing = wanted.filter((combatant) => !ids.has(combatant._id)
                                               && !refused.has(combatant._id));
  for (const combatant of missing) refused.add(combatant._id);
  if (missing.length) {
    notify("warn", "SEIZE.Refused", {
      system: game.system?.title ?? game.system?.id ?? "", names: missing.map((c) => c.name).join(", "),
    });
  }
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
 * and sheet find an actor; a hidden token makes a hidden combatant.
 * @param {DialectCombatant} combatant
 */
function withToken(combatant) {
  const tokenId = tokenOf(combatant.flags.seize.participant);
  const scene = tokenId ? game.scenes?.find((s) => s.tokens.has(tokenId)) : undefined;
  const token = tokenId ? scene?.tokens.get(tokenId) : undefined;
  // pf2e's Combatant adds a party's members by hand in place of its token (which the next sync
  // would take out again): a party that joined as one participant stays one, with no token.
  if (!scene || !token || membersOf(token.actor)) return combatant;
  return { ...combatant, tokenId, sceneId: scene.id, actorId: token.actorId,
           hidden: Boolean(combatant.hidden || token.hidden) };
}

/**
 * Send one command on the link's WebSocket (a POST when it cannot carry it; see ``Link.send``),
 * under a key of its own, so that a resend after a dropped socket is never applied twice. One
 * still queued when this client stopped talking to Seize (another GM became the active one)
 * was pressed here all the same: it goes as a POST, with the settings as they are now.
 * @param {Record<string, unknown>} command
 */
async function send(command) {
  const key = foundry.utils.randomID(16);
  const answer = link ? await link.send(command, key)
    : await postCommand(setting("server"), setting("table"), setting("token"), command, key);
  if (!answer.ok) ui.notifications?.warn(`Seize: ${problemOf(answer)}`);
}

/** @param {Record<string, unknown>} command */
function sendQueued(command) {
  queue.run(() => send(command)).catch((error) => console.error("Seize |", error));
}

/**
 * A control of the tracker pressed on Seize's Combat. The client linked to Seize sends the
 * command, or tells why there is none; another GM's client asks it through the Combat (a
 * request in its flags, which only GMs may write); a player is told to ask the GM.
 * @param {Combat.Implementation} combat
 * @param {TrackerControl} control
 */
async function askSeize(combat, control) {
  if (link && view) {
    perform(control);
    return;
  }
  if (!game.user?.isGM) {
    ui.notifications?.warn(localize("SEIZE.AskGm"));
    return;
  }
  const request = { what: control, id: foundry.utils.randomID(16) };
  await combat.update(/** @type {Combat.UpdateData} */ ({ flags: { seize: { request } } }));
}

/** @param {TrackerControl} control */
function perform(control) {
  if (!view) return;
  const command = commandFor(control, view);
  if (command && control === "endCombat") {
    confirmEnd().then((yes) => { if (yes) sendQueued(command); })
      .catch((error) => console.error("Seize |", error));
    return;
  }
  if (command) sendQueued(command);
  else ui.notifications?.info(localize(refusalFor(control, view.system)));
}

/** Ending the scene in Seize is asked first, as Foundry asks before ending a combat. */
async function confirmEnd() {
  const title = localize("SEIZE.EndScene.Title");
  const content = `<p>${localize("SEIZE.EndScene.Content")}</p>`;
  if ((game.release?.generation ?? 12) >= 13) {
    return Boolean(await foundry.applications.api.DialogV2.confirm({
      window: { title }, content, rejectClose: false,
    }));
  }
  return Boolean(await Dialog.confirm({ title, content }));
}

/**
 * A change someone made to Seize's Combat: a turn or round moved on to a later combatant (any
 * GM's Next Turn) is the engine's "next" where it has one; everything else (an initiative edited,
 * a row dragged and the turn a system writes with it, a combatant added or removed, Previous
 * Turn) is put back to Seize's order. The module's own writes are ignored.
 * @param {Combat.Implementation | null | undefined} combat
 * @param {object} options
 */
function changedByHand(combat, options) {
  return Boolean(link) && !isOwnWrite(options) && seizeTableOf(combat) === setting("table");
}

Hooks.on("updateCombat", (combat, changes, options) => {
  if (!changedByHand(combat, options)) return;
  const request = /** @type {{flags?: {seize?: {request?: {what?: unknown}}}}} */ (changes)
    .flags?.seize?.request;
  if (request && CONTROLS.includes(/** @type {TrackerControl} */ (request.what))) {
    perform(/** @type {TrackerControl} */ (request.what));
    return;
  }
  if (!("turn" in changes || "round" in changes)) return;
  const read = written && readTurnWrite(written, changes, orderOf(combat.setupTurns()),
                                        combat.turn, reorder);
  if (read === "reorder" && !reorder) notify("warn", "SEIZE.PutBack");
  reorder = null;
  const command = read === "next" && view ? nextCommand(view) : null;
  if (command) sendQueued(command);
  requestSync();
});
Hooks.on("createCombatant", (combatant, options) => {
  if (changedByHand(combatant.parent, options)) requestSync();
});
Hooks.on("updateCombatant", (combatant, changes, options) => {
  if (!changedByHand(combatant.parent, options)) return;
  // Marking a combatant defeated takes its participant out, where the system has the notion.
  const participant = combatant.flags.seize?.participant;
  const out = changes.defeated === true && view && participant
    ? takeOutCommand(view, participant) : null;
  if (out) sendQueued(out);
  noteReorder(combatant.parent);
  requestSync();
});

/**
 * A combatant changed by hand that leaves the tracker in another order than Seize's (pf2e's
 * drag and drop, SWADE's Act Now and Act After): the GM is told, once, that Seize's order is put
 * back, and the ``turn`` write the system sends with it is known for what it is.
 * @param {Combat.Implementation | null} combat
 */
function noteReorder(combat) {
  if (!combat || !written) return;
  const order = orderOf(combat.setupTurns());
  if (order.join() === written.order.join()) return;
  if (!reorder) notify("warn", "SEIZE.PutBack");
  reorder = { order };
}

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

/**
 * The selected tokens join; a party's token (pf2e) joins as its members, each from its token on
 * this scene (the last, as pf2e's ``CombatantPF2e.fromActor`` takes it). A member with no token
 * here is named to the GM.
 */
async function joinSelected() {
  if (!view) return;
  /** @type {Map<string, import("./controls.mjs").SelectedToken>} */
  const tokens = new Map();
  /** @param {Token.Implementation} token */
  const add = (token) => tokens.set(token.id, {
    id: token.id, name: token.name, hasPlayerOwner: token.actor?.hasPlayerOwner ?? false,
  });
  for (const token of canvas?.tokens?.controlled ?? []) {
    const members = membersOf(token.actor);
    if (!members) {
      add(token);
      continue;
    }
    const away = [];
    for (const member of members) {
      const own = member.getActiveTokens().at(-1);
      if (own) add(own);
      else away.push(member.name);
    }
    if (away.length) {
      notify("warn", "SEIZE.NoTokenHere", { party: token.name, names: away.join(", ") });
    }
  }
  for (const command of joinsFor(view.system, [...tokens.values()])) await send(command);
}

/**
 * The members of a party (pf2e's party actor, of type "party", whose ``members`` are actors),
 * or null for any other actor.
 * @param {Actor.Implementation | null | undefined} actor
 * @returns {Actor.Implementation[] | null}
 */
function membersOf(actor) {
  if (!actor || /** @type {string} */ (actor.type) !== "party") return null;
  const members = /** @type {{members?: unknown}} */ (/** @type {unknown} */ (actor)).members;
  return Array.isArray(members) ? members : [];
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
