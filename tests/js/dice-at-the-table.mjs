// The Foundry module in the stand-in, linked to a real Seize server (its address, table and GM
// token on the command line), rolls what the Python test asks for with the table's dice and
// prints each roll's results as one line of JSON. Run with --experimental-websocket on Node 20
// (Node 22 has WebSocket without it): tests/server/vtt/test_foundry_dice.py.
import { Roll, configure, load, world } from "./foundry-stand-in.mjs";

/** Wait until ``condition`` holds, polling; a minute (the tests' shared patience) says what
 * never came. */
async function until(condition, what) {
  for (const deadline = Date.now() + 60_000; !condition();) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const [server, table, token, formula, user] = process.argv.slice(2);
const player = user ? { id: user, isGM: false, characterId: "actor0" } : null;
await load({
  seize: { WebSocket: globalThis.WebSocket, fetch: globalThis.fetch },
  users: player ? [player] : [],
  actors: [{ id: "actor0", name: "Jena" }],
  scenes: [{ id: "scene-1", tokens: [{ id: "JenaToken", actorId: "actor0" }] }],
});
await configure(token, server, table);
await until(() => globalThis.game.combats.contents[0]?.combatants.size > 0,
            "the module never wrote Seize's combat");
await globalThis.game.settings.set("core", "diceConfiguration", { d20: "seize" });
if (player) {
  // The player's client asks the active GM's (this one) on Foundry's module socket.
  const [, count, sides] = /^(\d+)d(\d+)/.exec(formula);
  world.relay("module.seize", { kind: "dice", id: "r1", user: player.id, sides: Number(sides),
                                count: Number(count) });
  await until(() => world.emitted.length === 1, "the GM's client never answered the player's");
  console.log(JSON.stringify(world.emitted[0].message.rolled));
} else {
  const roll = await new Roll(formula).evaluate();
  console.log(JSON.stringify({ total: roll.total,
                               results: roll.dice.flatMap((term) => term.results) }));
}
process.exit(0);
