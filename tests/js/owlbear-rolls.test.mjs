// A roll of the table's dice in the Owlbear room, in the shape Owlbear's Dice extension shares its
// rolls in (owlbear-rodeo/dice at ccc32be: src/types/Dice.ts, src/helpers/getCombinedDiceValue.ts).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ROLL, ROLL_VALUES, shared, told } from "../../server/static/owlbear/rolls.js";

/** The Dice extension's own reading of a roll's total (getCombinedDiceValue, for the shapes a
 * roll of the table's dice takes: dice summed, a D100 and a D10 grouped). */
function theirs(dice, values) {
  if (dice.dice.length === 2 && dice.dice[0].type === "D100" && dice.dice[1].type === "D10") {
    const [tens, units] = dice.dice.map((die) => values[die.id]);
    return tens === 0 && units === 0 ? 100 : tens + units;
  }
  return dice.dice.reduce((sum, die) => sum + (die.dice ? theirs(die, values)
    : values[die.id] === 0 && die.type === "D10" ? 10 : values[die.id]), 0);
}

test("a roll is shared as the Dice extension shares one, and reads back", () => {
  const roll = shared("r1", 20, [17, 4]);
  assert.deepEqual(roll[ROLL], { dice: [{ id: "r1-0", type: "D20" }, { id: "r1-1", type: "D20" }],
                                 hidden: false });
  assert.deepEqual(roll[ROLL_VALUES], { "r1-0": 17, "r1-1": 4 });
  assert.deepEqual(told(roll), { dice: "2d20", faces: [17, 4] });
  assert.equal(theirs(roll[ROLL], roll[ROLL_VALUES]), 21);
});

test("every d100 from 1 to 100 is a D100 and a D10 the Dice extension reads as that number", () => {
  for (let face = 1; face <= 100; face++) {
    const roll = shared("p", 100, [face]);
    const [group] = roll[ROLL].dice;
    assert.deepEqual(group.dice.map((die) => die.type), ["D100", "D10"]);
    assert.equal(theirs(group, roll[ROLL_VALUES]), face, `d100 ${face}`);
    assert.deepEqual(told(roll), { dice: "1d100", faces: [face] });
  }
});

test("a d10's ten is the Dice extension's 0", () => {
  const roll = shared("t", 10, [10, 3]);
  assert.deepEqual(Object.values(roll[ROLL_VALUES]), [0, 3]);
  assert.equal(theirs(roll[ROLL], roll[ROLL_VALUES]), 13);
  assert.deepEqual(told(roll).faces, [10, 3]);
});

test("metadata without a roll of the table's dice tells none", () => {
  for (const metadata of [undefined, {}, { [ROLL]: { dice: [] }, [ROLL_VALUES]: {} },
                          { [ROLL]: { dice: [{ id: "a", type: "D6" }] }, [ROLL_VALUES]: {} },
                          { [ROLL]: "2d6", [ROLL_VALUES]: { a: 3 } }]) {
    assert.equal(told(metadata), null, JSON.stringify(metadata));
  }
});
