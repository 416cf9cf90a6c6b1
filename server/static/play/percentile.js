// A d100 as the table rolls it, on the player's phone: a tens die and a d10 read together, the
// rule the die station reads them by (adapters/percentile.py, whose docstring says why; its test
// holds this module to the same numbers for every pair). Pure: no page, no library here.

export const PERCENT = 100;

/**
 * @typedef {{id: string, sides: number | null, number: number, tens: boolean}} Rolled one die
 *   of a roll: its id, its size (a tens die counts 100), the number up (a d10's "0" is 10, a
 *   tens die's "00" 100), and whether it reads the tens of a d100
 */

/** Whether the die takes part in a roll of ``sides``-sided dice: one of that size, or for a
 * d100 a tens die or a d10 to pair with one. @param {Rolled} rolled @param {number} sides */
export function fits(rolled, sides) {
  if (sides === PERCENT) return rolled.tens || rolled.sides === 10 || rolled.sides === PERCENT;
  return rolled.sides === sides && !rolled.tens;
}

/** A tens die and a d10 read together: 00 and 0 make 100; a d10 reading tens counts 1 … 10 as
 * 10 … 100. @param {Rolled} tens @param {Rolled} units */
export function pair(tens, units) {
  const high = tens.sides === 10 ? tens.number * 10 : tens.number;
  return (high % PERCENT) + (units.number % 10) || PERCENT;
}

/**
 * The ``count`` numbers a roll of ``sides``-sided dice makes of ``dice``, in the order rolled,
 * with the ids of the dice that made them (two for a percentile pair); null while they make
 * fewer. Every die must ``fit``.
 * @param {Rolled[]} dice @param {number} sides @param {number} count
 * @returns {{faces: number[], ids: string[]} | null}
 */
export function filled(dice, sides, count) {
  if (sides !== PERCENT) {
    if (dice.length < count) return null;
    return { faces: dice.slice(0, count).map((one) => one.number),
             ids: dice.slice(0, count).map((one) => one.id) };
  }
  const faces = [];
  const ids = [];
  const tens = [];
  const units = [];
  for (const one of dice) {
    if (faces.length === count) break;
    if (one.sides === PERCENT && !one.tens) { // a hundred-sided die
      faces.push(one.number);
      ids.push(one.id);
      continue;
    }
    (one.tens ? tens : units).push(one);
    if (tens.length && units.length) {
      const [high, low] = [tens.shift(), units.shift()];
      faces.push(pair(high, low));
      ids.push(high.id, low.id);
    }
  }
  return faces.length === count ? { faces, ids } : null;
}
