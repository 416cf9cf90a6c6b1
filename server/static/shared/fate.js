// A Fate (Fudge) die on the player's phone and in the console's list of dice, read as the die
// station reads one (adapters/pixels_protocol.py, ``FATE`` and ``FUDGE``, whose docstrings say
// why and from what; tests/adapters/test_pixels_official.py holds this module to the same
// faces). Pure: no page, no library here.

/** The faces of a Fate die at the table, as Foundry's ``FateDie`` has them: 1 is −, 2 blank,
 * 3 +. No other die at the table has three. */
export const FATE = 3;

const FUDGE = [3, 2, 1, 1, 2, 3];
const SYMBOLS = ["−", "blank", "+"];

/** A Pixels Fudge die's face at the table, from the number the library reads it as (a d6's,
 * 1 to 6: ``DiceUtils.faceFromIndex``). @param {number} face */
export const fudge = (face) => FUDGE[face - 1];

/** A die of ``sides`` in the game's words: "dF" for a Fate die. @param {number} sides */
export const named = (sides) => (sides === FATE ? "dF" : `d${sides}`);

/** A face of a die of ``sides`` as it is shown: a Fate face as its symbol.
 * @param {number} face @param {number} sides */
export const shown = (face, sides) => (sides === FATE ? SYMBOLS[face - 1] : String(face));
