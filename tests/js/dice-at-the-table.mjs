// The GM's Foundry client (foundry-at-the-table.mjs), linked to a real Seize server (its address,
// table and GM token on the command line), rolls what the Python test asks for with the table's
// dice, or (given a user) answers that player's request for it as the active GM's client, and
// prints the results as one line of JSON. Run with --experimental-websocket on Node 20 (Node 22
// has WebSocket without it): tests/adapters/test_dice_requests.py.
import { attack, gm, relayed } from "./foundry-at-the-table.mjs";

const [server, table, token, formula, user] = process.argv.slice(2);
await gm(server, table, token);
console.log(JSON.stringify(user ? await relayed(user, formula) : await attack(formula)));
process.exit(0);
