// Foundry's clients at a Seize table, rolling with the table's dice: the stand-in
// (foundry-stand-in.mjs) with the module loaded, the GM's client linked to a real Seize server
// over the runtime's own WebSocket and fetch, and every client's dice set to "Seize table dice".
// One client a runtime: in Node (dice-at-the-table.mjs, for tests/adapters/test_dice_requests.py)
// and in a browser's page (tests/pages/test_foundry_dice.py, one page a client).
import { Roll, configure, load, world } from "./foundry-stand-in.mjs";
import { until } from "./waiting.mjs";

export { world };

/** The player, whose character is Jena: her token on the scene joined the table. */
export const PLAYER = { id: "p1", isGM: false, characterId: "actor0" };
/** The GM, whom every client of the world knows, as Foundry's ``game.users`` lists every user. */
const GM = { id: "gm1", isGM: true };
const JENAS_WORLD = {
  actors: [{ id: "actor0", name: "Jena" }],
  scenes: [{ id: "scene-1", tokens: [{ id: "JenaToken", actorId: "actor0" }] }],
};

/** A client of the world, every die of Foundry's rolled with the table's dice (Foundry's core
 * setting). */
async function client(options) {
  await load({ seize: { WebSocket: globalThis.WebSocket, fetch: globalThis.fetch }, ...JENAS_WORLD,
               ...options });
  const every = Object.keys(globalThis.CONFIG.Dice.fulfillment.dice);
  await globalThis.game.settings.set("core", "diceConfiguration",
                                     Object.fromEntries(every.map((die) => [die, "seize"])));
}

/**
 * The active GM's client, linked to the table (Seize's address, its id, the GM's token) and
 * holding Seize's combat, which the module wrote.
 * @param {BroadcastChannel} [others] the world's other clients (see the stand-in's moduleSocket)
 */
export async function gm(server, table, token, others) {
  await client({ user: { ...GM, isActiveGM: true }, users: [PLAYER], others });
  await configure(token, server, table);
  await until(() => globalThis.game.combats.contents[0]?.combatants.size > 0,
              "the module never wrote Seize's combat");
}

/** The player's client: never linked to Seize, it asks the active GM's for the table's dice. */
export async function player(others) {
  await client({ user: { ...PLAYER, isActiveGM: false }, users: [GM], others });
}

/** A roll of ``formula`` made here, as an attack's: its total, and its dice's results. */
export async function attack(formula) {
  const roll = await new Roll(formula).evaluate();
  return { total: roll.total, results: roll.dice.flatMap((term) => term.results) };
}

/** A player's request for ``formula``'s first dice, come from their client to this one (the
 * active GM's) on Foundry's module socket, as the player's asks for a term's faces (a Fate
 * die's three): what this client answers them. */
export async function relayed(user, formula) {
  const [, count, faces] = /^(\d+)d(\d+|F)/.exec(formula);
  const before = world.emitted.length;
  world.relay("module.seize", { kind: "dice", id: "r1", sides: faces === "F" ? 3 : Number(faces),
                                count: Number(count) }, user);
  await until(() => world.emitted.length > before, "the GM's client never answered the player's");
  return world.emitted.at(-1).message.rolled;
}
