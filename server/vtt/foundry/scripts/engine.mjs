// What the tracker's controls mean in each system: "next", a new round or page, taking out.

/**
 * The engine's command for a tracker's "next turn", or null where the system has none.
 * @param {import("./controls.mjs").View} view
 * @returns {Record<string, unknown> | null}
 */
export function nextCommand(view) {
  if (view.system === "four-color") return { type: "next_panel" };
  if (view.system === "megatraveller-rcs" && view.token && !view.declared) {
    return { type: "end_turn", character: view.token };
  }
  if (view.system === "megatraveller-rcs" && view.declared) return { type: "resolve" };
  if (view.system === "awareness" && view.exchange && !view.exchange.pending.length) {
    return { type: "resolve" };
  }
  return null;
}

/**
 * What a Foundry control on Seize's Combat is in Seize. Every control of the combat tracker
 * that would move or change the order is one of these; none of them runs the game system's own
 * workflow on Seize's Combat.
 * @typedef {"nextTurn" | "previousTurn" | "nextRound" | "previousRound" | "startCombat"
 *   | "rollInitiative" | "resetAll" | "endCombat"} Control
 */

/** @type {readonly Control[]} */
export const CONTROLS = ["nextTurn", "previousTurn", "nextRound", "previousRound", "startCombat",
                         "rollInitiative", "resetAll", "endCombat"];

/**
 * The command that starts a new page (a deal) or a new round (a roll), when the engine waits
 * for one; null otherwise.
 * @param {import("./controls.mjs").View} view
 * @returns {Record<string, unknown> | null}
 */
export function roundCommand(view) {
  if (!["setup", view.system === "four-color" ? "page_done" : "round_over"].includes(view.phase)) {
    return null;
  }
  return view.system === "four-color" ? { type: "deal" } : { type: "roll_initiative" };
}

/**
 * Seize's command for a tracker control, or null where Seize has none now.
 * @param {Control} control
 * @param {import("./controls.mjs").View} view
 * @returns {Record<string, unknown> | null}
 */
export function commandFor(control, view) {
  if (control === "nextTurn") return nextCommand(view);
  if (["nextRound", "startCombat", "rollInitiative"].includes(control)) return roundCommand(view);
  if (control === "endCombat" && view.system === "four-color") return { type: "end_scene" };
  return null;
}

/**
 * Why a control does nothing in Seize, as a key of the module's language file: in the game's
 * own words where the game has them.
 * @param {Control} control
 * @param {string} system
 */
export function refusalFor(control, system) {
  if (control === "nextTurn") return `SEIZE.Refuse.next.${system}`;
  if (["nextRound", "startCombat", "rollInitiative"].includes(control)) {
    return `SEIZE.Refuse.round.${system}`;
  }
  if (control === "endCombat") return "SEIZE.Refuse.end";
  return "SEIZE.Refuse.back";
}

/**
 * Taking a participant out where the system has the notion (a GM marking a combatant
 * defeated); null where it has none, and defeated stays Foundry's alone.
 * @param {import("./controls.mjs").View} view
 * @param {string} participant
 * @returns {Record<string, unknown> | null}
 */
export function takeOutCommand(view, participant) {
  if (view.system === "megatraveller-rcs") return { type: "take_out", character: participant };
  return null;
}
