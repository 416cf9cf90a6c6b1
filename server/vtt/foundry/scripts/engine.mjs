// What "next" means for each system when a tracker's GM advances the turn.

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
