// The buttons the combat tracker offers: exactly the actions the engine allows now, from the
// GM's view. Pure: each control is a label and a command (``ask`` names the fields to ask for).

/**
 * A table's view as the server sends it (docs/api.md); each system has its own fields.
 * @typedef {Record<string, any> & {system: string}} View
 * @typedef {{label: string, command: Record<string, unknown>, ask?: string[]}} Control
 * @typedef {{id: string, name: string, hasPlayerOwner: boolean}} SelectedToken
 */

/**
 * @param {View} view
 * @returns {Control[]}
 */
export function controlsFor(view) {
  /** @type {Control[]} */
  const controls = [];
  /** @type {(label: string, command: Record<string, unknown>, ask?: string[]) => void} */
  const add = (label, command, ask) => {
    controls.push({ label, command, ...(ask ? { ask } : {}) });
  };
  if (view.system === "four-color") {
    if (["setup", "page_done"].includes(view.phase)) add("Deal", { type: "deal" });
    if (view.awaiting.some((/** @type {{what: string}} */ a) => a.what === "next_panel")) add("Next Panel", { type: "next_panel" });
    for (const joker of view.jokers) {
      if (joker.acting) add(`Play joker (${joker.acting})`, { type: "play_joker", card: joker.card });
    }
  }
  if (view.system === "megatraveller-rcs") {
    if (["setup", "round_over"].includes(view.phase)) add("Roll initiative", { type: "roll_initiative" });
    if (view.token && !view.declared) {
      add(`Declare (${view.token})`, { type: "declare", character: view.token, action: "long",
                                       target: "" }, ["what", "target"]);
      add(`End turn (${view.token})`, { type: "end_turn", character: view.token });
    }
    if (view.declared) add("Resolve", { type: "resolve" });
    for (const id of view.may_seize) add(`Seize (${id})`, { type: "seize", character: id });
  }
  if (view.system === "awareness") {
    if (["setup", "round_over"].includes(view.phase)) add("Roll initiative", { type: "roll_initiative" });
    if (view.declaring) {
      add(`Act (${view.declaring})`, { type: "act", character: view.declaring }, ["what"]);
      add(`Wait (${view.declaring})`, { type: "wait", character: view.declaring }, ["trigger"]);
    }
    if (view.exchange) {
      for (const id of view.may_react) {
        const preempt = { type: "react", character: id, to: view.exchange.act.character,
                          timing: "before", what: "pre-empts" };
        add(`Pre-empt (${id})`, preempt);
        add(`Pre-empt, d10 from the tray (${id})`, { ...preempt, source: "device" });
      }
      // Nothing resolves while a pre-emption's d10 is awaited.
      if (!view.exchange.pending.length) add("Resolve", { type: "resolve" });
    }
  }
  add("Undo", { type: "undo" });
  return controls;
}

/**
 * The join commands for tokens selected on the canvas, by system.
 * @param {string} system
 * @param {SelectedToken[]} tokens
 */
export function joinsFor(system, tokens) {
  /** @param {SelectedToken} token */
  const id = (token) => `fvtt${token.id}`.replace(/[^A-Za-z0-9_.-]/g, "");
  return tokens.map((token) => {
    if (system === "four-color") {
      return { type: "join", member: { id: id(token), name: token.name,
                                       kind: token.hasPlayerOwner ? "hero" : "villain" } };
    }
    if (system === "megatraveller-rcs") {
      return { type: "join", character: { id: id(token), name: token.name,
                                          side: token.hasPlayerOwner ? "players" : "opposition",
                                          dex: 0, movement: 0 } };
    }
    return { type: "join", sheet: { id: id(token), name: token.name, perception: 5, stealth: 5,
                                    coordination: 5 } };
  });
}
