// The table's dice fill Foundry's own rolls: a dice fulfillment method (Foundry 12 and 13,
// ``CONFIG.Dice.fulfillment``) whose handler asks Seize for the faces. Pure: no Foundry globals
// here; seize.mjs registers the method and carries the requests.
//
// Foundry calls a non-interactive method's ``handler(term, options)`` for each die of a term it
// rolls, one after another, and takes the number it resolves to as that die's result, or rolls
// the die itself when it resolves to undefined (fvtt-types 13.345.1,
// src/foundry/client/config.d.mts, ``CONFIG.Dice.FulfillmentHandler``: "called and awaited in
// order to produce the die roll result ... undefined if it could not be fulfilled";
// src/foundry/client/dice/terms/dice.d.mts, ``DiceTerm#_roll``). So one request asks for all of
// a term's dice (a d20 with advantage, ``2d20kh``, is two dice or two rolls of one), and each
// call of the handler takes the next of its faces.
//
// Foundry calls the handler of a non-interactive method even when the roll is evaluated without
// interaction, and says so in the options it passes (``allowInteractive: false``: Roll#evaluate's
// option, src/foundry/client/dice/roll.d.mts, "force the use of non-interactive rolls and do not
// prompt the user to make manual rolls"). Foundry evaluates so a blind roll (``Roll#toMessage``
// with the blind roll mode: its roller must not see the dice; dnd5e's own ``BasicRoll.toMessage``,
// module/dice/basic-roll.mjs at 00724328, keeps the same rule) and a ``Roll.simulate``. But a
// system may evaluate a roll before it makes the roll's message, allowing interaction whatever
// the mode: dnd5e's checks, saves and attacks (``BasicRoll.buildEvaluate``, basic-roll.mjs at
// 99c48a71, then ``buildPost``). So a roll is blind, too, when its own roll mode says so
// (``roll.options.rollMode``, which such a system's roll dialog sets, and its message takes) or,
// with none, the user's chat roll mode (the core setting ``rollMode``, which the message takes
// then). A blind roll never asks the table: the handler gives nothing at once, and Foundry
// rolls. Every other mode (public, private GM, self) asks the roller's own dice: a GM's private
// roll the GM's, whose result only the GM sees.
//
// A Fate roll (``4dF``) is a term of Foundry's ``FateDie``: three faces, denomination "f", its
// results -1, 0 and +1, which its own ``roll`` marks a failure and a success (Foundry 13
// client/dice/terms/fate.mjs: "Mathematically behaves like 1d3-2"). The table's Fudge dice
// answer a request for three faces with 1 (−), 2 (blank) or 3 (+), so a Fate term's result is
// the face less two. The core dice configuration has no place for it (the official Pixels
// module leaves Fudge dice out for that: "Core API needs to support fudge dice as an
// unfulfilled roll option", foundryvtt/pixels scripts/manager.mjs at 23bd751), and a term's
// method is the one configured for its denomination, "f" for a Fate die (Foundry 13
// client/dice/terms/dice.mjs, ``#invokeFulfillmentHandler``); so the module adds "dF" to the
// denominations offered (``CONFIG.Dice.fulfillment.dice``, "the die denominations available for
// configuration", fvtt-types 13.345.1 config.d.mts), and the GM can give it to the table.

/** Foundry's blind roll mode (``CONST.DICE_ROLL_MODES.BLIND``). */
export const BLIND = "blindroll";
/** The method's key in ``CONFIG.Dice.fulfillment.methods``, and in the core dice setting. */
export const METHOD = "seize";
/** Seconds a request waits for the table's dice before Foundry rolls by itself. */
export const WAIT = 60;
/** Foundry's ``FateDie.DENOMINATION``, the key of its dice configuration. */
export const FATE = "f";
/** The faces a request asks for a Fate die: its ``FateDie``'s three. */
const FATE_FACES = 3;

/** As many dice as a request asks for, in the game's words: "2d20", "4dF".
 * @param {number} count @param {number} sides */
export const named = (count, sides) => `${count}${sides === FATE_FACES ? "dF" : `d${sides}`}`;

/**
 * @typedef {{faces: number, number?: number, denomination?: string, results: unknown[],
 *            _root?: {options?: {rollMode?: string}}}} Term the part of Foundry's DiceTerm the
 *   handler reads: its faces, how many dice, its denomination ("f" for a Fate die), the
 *   results rolled so far, and the roll it is in
 * @typedef {import("./link.mjs").Rolled} Rolled
 * @typedef {(sides: number, count: number) => Promise<Rolled>} Ask
 * @typedef {{from: number, count: number, rolled: Promise<Rolled>}} Asked
 * @typedef {{allowInteractive?: boolean}} Evaluation the options Foundry passes the handler
 */

/**
 * Register the method, on Foundry 12 and 13 (``CONFIG.Dice.fulfillment.methods``), and offer
 * the Fate die to the dice configuration beside Foundry's own (``dice``), unless a system
 * already does; an older Foundry has no dice fulfillment and is left alone. Non-interactive:
 * the handler is awaited, and Foundry opens no dialog of its own.
 * @param {{Dice?: {fulfillment?: {methods: Record<string, object>,
 *                                 dice: Record<string, {label: string, icon: string}>}}}} config
 *   Foundry's CONFIG
 * @param {string} label
 * @param {(term: Term, options?: Evaluation) => Promise<number | undefined>} handler
 */
export function registerMethod(config, label, handler) {
  const fulfillment = config.Dice?.fulfillment;
  if (!fulfillment?.methods) return false;
  // No icon: the types say nothing of its form (a class, or markup).
  fulfillment.methods[METHOD] = { label, interactive: false, handler };
  fulfillment.dice[FATE] ??= { label: "dF", icon: '<i class="fas fa-plus-minus"></i>' };
  return true;
}

/**
 * Whether Foundry means the roll to be hidden from its roller, or rolled with no one's dice:
 * evaluated without interaction, or blind by its own roll mode or, with none, the chat's.
 * @param {Term} term
 * @param {Evaluation | undefined} options
 * @param {string | undefined} chatMode the user's chat roll mode (the core setting)
 */
export function unasked(term, options, chatMode) {
  if (options?.allowInteractive === false) return true;
  const own = term._root?.options?.rollMode;
  return ((own && own !== "roll") ? own : chatMode) === BLIND;
}

/** The faces the table's dice give each term: one request per term, its faces handed to the
 * term's dice in turn; a die past them (an explosion, a reroll) asks again. */
export class TermFaces {
  /**
   * @param {Ask} ask
   * @param {() => string | undefined} chatMode the user's chat roll mode, read at each die
   */
  constructor(ask, chatMode) {
    this.ask = ask;
    this.chatMode = chatMode;
    /** @type {WeakMap<Term, Asked>} */
    this.asked = new WeakMap();
  }

  /**
   * The face of the term's die being rolled now, or undefined for Foundry to roll it: at once,
   * for a blind roll or one evaluated without interaction (``unasked``).
   * @param {Term} term
   * @param {Evaluation} [options]
   */
  async face(term, options) {
    if (unasked(term, options, this.chatMode())) return undefined;
    const index = term.results.length; // the dice before this one are rolled
    let asked = this.asked.get(term);
    if (!asked || index >= asked.from + asked.count) {
      const count = Math.max(1, (term.number ?? 1) - index);
      asked = { from: index, count, rolled: this.ask(term.faces, count) };
      this.asked.set(term, asked);
    }
    const rolled = await asked.rolled;
    const face = rolled.faces?.[index - asked.from];
    return face === undefined || term.denomination !== FATE ? face : face - 2;
  }
}

/**
 * Whose dice roll for a Foundry user: the GM's for a GM; for a player, the Seize participant of
 * Seize's combatant whose actor is the player's character. Null: nobody at the table.
 * @param {{isGM?: boolean, character?: {id: string | null} | null} | undefined} user
 * @param {Iterable<{actorId?: string | null, flags?: {seize?: {participant?: string | null}}}>} combatants
 *   Seize's Combat's combatants
 */
export function ownerOf(user, combatants) {
  if (!user) return null;
  if (user.isGM) return "gm";
  const actor = user.character?.id;
  if (!actor) return null;
  for (const combatant of combatants) {
    const participant = combatant.flags?.seize?.participant;
    if (combatant.actorId === actor && participant) return participant;
  }
  return null;
}
