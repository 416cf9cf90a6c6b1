// A roll of the table's own dice, shared in the Owlbear room as Owlbear's Dice extension shares
// its rolls with other extensions: in the roller's player metadata (OBR.player.setMetadata, which
// every client reads in OBR.party), a roll (``Dice``: the dice, each {id, type}, nested for a
// group) and its values by die id (owlbear-rodeo/dice at ccc32be, src/plugin/DiceRollSync.tsx,
// which writes ``rodeo.owlbear.dice/roll`` and ``/rollValues``; src/types/Dice.ts, Die.ts,
// DiceType.ts). Seize writes under its own key, in the same shape: an extension that reads the
// Dice extension's rolls reads Seize's with the key changed. As that extension has them
// (src/helpers/getCombinedDiceValue.ts), a D10 shows 0 for ten, and a d100 is a group of a D100
// (its tens, 0 … 90) and a D10, 00 and 0 making 100. Pure: no SDK, no DOM here.

import { KEY } from "./map.js";

/** In a player's metadata: their last roll of the table's dice, and its values by die id. */
export const ROLL = `${KEY}/roll`;
export const ROLL_VALUES = `${KEY}/rollValues`;
/** The dice a roll may ask for (docs/api.md, "Dice requests"). */
export const SIDES = [4, 6, 8, 10, 12, 20, 100];
export const MOST = 8;

/**
 * A roll's faces (as Seize answers a dice request: 1 … sides, a d10's ten 10, a d100 1 … 100) in
 * the Dice extension's shape, its dice named ``<id>-<n>``.
 * @param {string} id the roll's own id
 * @param {number} sides
 * @param {number[]} faces
 * @returns {{[ROLL]: object, [ROLL_VALUES]: Record<string, number>}}
 */
export function shared(id, sides, faces) {
  const values = {};
  const dice = faces.map((face, n) => {
    const die = `${id}-${n}`;
    if (sides === 100) {
      values[`${die}-tens`] = face % 100 - face % 10;
      values[`${die}-units`] = face % 10;
      return { dice: [{ id: `${die}-tens`, type: "D100" }, { id: `${die}-units`, type: "D10" }] };
    }
    values[die] = sides === 10 ? face % 10 : face;
    return { id: die, type: `D${sides}` };
  });
  return { [ROLL]: { dice, hidden: false }, [ROLL_VALUES]: values };
}

/**
 * What a player's metadata says they last rolled with the table's dice: ``{dice, faces}`` (``2d20``
 * and each face), or null where it holds no such roll (nothing yet, or not in that shape).
 * @param {Record<string, unknown> | undefined} metadata
 */
export function told(metadata) {
  const roll = metadata?.[ROLL];
  const values = metadata?.[ROLL_VALUES];
  if (!Array.isArray(roll?.dice) || !roll.dice.length || typeof values !== "object" || !values) {
    return null;
  }
  const faces = roll.dice.map((die) => face(die, values));
  if (faces.some((one) => one === null)) return null;
  const type = roll.dice[0].dice ? "D100" : roll.dice[0].type;
  return { dice: `${faces.length}${String(type).toLowerCase()}`, faces };
}

/** A die's number at the table, or null for one that is not in the shape. */
function face(die, values) {
  if (Array.isArray(die?.dice)) {
    const [tens, units] = die.dice.map((one) => values[one?.id]);
    if (!Number.isInteger(tens) || !Number.isInteger(units)) return null;
    return tens + units || 100;
  }
  const value = values[die?.id];
  if (!Number.isInteger(value)) return null;
  return die.type === "D10" && value === 0 ? 10 : value;
}
