// What the extension decides, apart from Owlbear and the page: which link was pasted, which GM's
// client writes, and what each linked token must say. Pure: no SDK, no DOM here.

/** Seize's own key in Owlbear's metadata (Owlbear's convention: a reverse domain and a path). */
export const KEY = "seize.initiative";
/** On a token: the participant it stands for, its place in the public order, whether it acts. */
export const TURN = `${KEY}/turn`;
/** On the one marker item, attached to the acting token. */
export const MARKER = `${KEY}/marker`;
/** In the room: the table's public address, which every player may read. Never a token. */
export const TABLE = `${KEY}/table`;

/** A Seize table's id: twelve hex digits, as the server mints them (``Tables.create``). */
const TABLE_ID = /^[0-9a-f]{12}$/;

/**
 * What the room's metadata says of its table (its ``TABLE`` key), checked. Every player in a
 * room may write the room's metadata, so it is taken only as the address of a table on this
 * extension's own server (``origin``), holding nothing else, and, for a viewer who follows a table
 * (``mine``, its id), naming that one. The answer is ``{address}`` where it is such an address,
 * ``{problem}`` saying which rule it breaks, in words of its own that never repeat the value (a
 * player may have put a link, a token or markup there), or null where the room says nothing.
 * @param {unknown} value
 * @param {string} origin
 * @param {string | null} [mine]
 * @returns {{address: {server: string, table: string}} | {problem: string} | null}
 */
export function roomTable(value, origin, mine = null) {
  if (value === undefined) return null;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: "it is not a table's address" };
  }
  const said = /** @type {Record<string, unknown>} */ (value);
  if (Object.keys(said).some((key) => key !== "server" && key !== "table")) {
    return { problem: "it holds more than a table's address, which no one may put there" };
  }
  if (typeof said.server !== "string" || typeof said.table !== "string"
      || !TABLE_ID.test(said.table)) {
    return { problem: "it is not a table's address" };
  }
  if (said.server !== origin) {
    return { problem: "it names another server than the one this extension comes from" };
  }
  if (mine !== null && said.table !== mine) {
    return { problem: "it names another table than the one your link opens" };
  }
  return { address: { server: said.server, table: said.table } };
}

/**
 * A GM link (/console/{table}#token=…) or a player link (/play/{table}?token=…), as the console
 * hands them out; null for anything else.
 * @param {string} text
 * @param {string} base the address to read a bare path against
 * @returns {{table: string, token: string, gm: boolean, server: string} | null}
 */
export function parseLink(text, base) {
  let url;
  try {
    url = new URL(text.trim(), base);
  } catch {
    return null;
  }
  const [page, table] = url.pathname.split("/").filter(Boolean).slice(-2);
  const gm = page === "console";
  const token = gm ? new URLSearchParams(url.hash.slice(1)).get("token")
    : page === "play" ? url.searchParams.get("token") : null;
  if (!table || !token) return null;
  return { table: decodeURIComponent(table), token, gm, server: url.origin };
}

/**
 * Whether this client is the one that writes: of the GMs in the room, the one whose connection
 * id sorts first, as every client sees the same party and so elects the same one.
 * @param {string} self this client's connection id
 * @param {{connectionId: string, role: string}[]} others the rest of the party
 */
export function elected(self, others) {
  return !others.some((player) => player.role === "GM" && player.connectionId < self);
}

/**
 * The turn each participant has in the public order: its first place, and whether it acts now.
 * @param {{turns: {participant: string | null, placed: boolean, current: boolean}[]}} order
 * @returns {Map<string, {place: number | null, acting: boolean}>}
 */
export function places(order) {
  const found = new Map();
  let place = 0;
  for (const turn of order.turns) {
    if (turn.placed) place += 1; // a turn without a token (an Element) still takes its place
    if (!turn.participant) continue;
    const had = found.get(turn.participant) ?? { place: null, acting: false };
    found.set(turn.participant, {
      place: had.place ?? (turn.placed ? place : null),
      acting: had.acting || turn.current,
    });
  }
  return found;
}

/**
 * What each linked token must say: its participant, and, where the public order has them, their
 * place and whether they act. A token whose participant is not in the public order (hidden, or
 * gone) says only who it stands for.
 * @param {{id: string, metadata: Record<string, unknown>}[]} items
 * @param {Map<string, {place: number | null, acting: boolean}>} order
 * @returns {Map<string, {participant: string, place: number | null, acting: boolean}>}
 */
export function wanted(items, order) {
  const want = new Map();
  for (const item of items) {
    const participant = participantOf(item);
    if (!participant) continue;
    const turn = order.get(participant) ?? { place: null, acting: false };
    want.set(item.id, { participant, ...turn });
  }
  return want;
}

/** Whether a token's Seize metadata already says what it must. */
export function says(item, turn) {
  return JSON.stringify(item.metadata[TURN] ?? null) === JSON.stringify(turn);
}

/** The participant a token stands for, or null. */
export function participantOf(item) {
  const participant = /** @type {{participant?: unknown}} */ (item.metadata[TURN] ?? {})
    .participant;
  return typeof participant === "string" ? participant : null;
}

/**
 * The participants a GM view lists as hidden, and every participant it has.
 * @param {Record<string, unknown>} view
 */
export function participants(view) {
  const all = /** @type {{id: string}[]} */ (
    [view.members, view.characters].find(Array.isArray) ?? []);
  return { present: new Set(all.map((p) => p.id)),
           hidden: new Set(/** @type {string[]} */ (view.hidden ?? [])) };
}

/**
 * The commands the GM's hiding or showing of linked tokens in Owlbear means: a token hidden
 * there makes its participant hidden in Seize, one shown again reveals them. Only a change seen
 * here counts (``seen`` holds each token's last visibility, and is brought up to date), so a
 * participant the GM hid from the console is not revealed because its token was visible.
 * @param {{id: string, visible: boolean, metadata: Record<string, unknown>}[]} items
 * @param {Map<string, boolean>} seen
 * @param {{present: Set<string>, hidden: Set<string>}} table
 */
export function visibilityCommands(items, seen, table) {
  const commands = [];
  for (const item of items) {
    const participant = participantOf(item);
    const before = seen.get(item.id);
    seen.set(item.id, item.visible);
    if (!participant || !table.present.has(participant) || before === undefined
        || before === item.visible) continue;
    if (!item.visible && !table.hidden.has(participant)) {
      commands.push({ type: "hide", participant });
    } else if (item.visible && table.hidden.has(participant)) {
      commands.push({ type: "reveal", participant });
    }
  }
  return commands;
}

/**
 * Who is at the table and who hidden, as the GM's hiding here knows it: the view's (``table``,
 * as of sequence ``seq``), with each hide or reveal the GM's hiding sent that the view has not
 * reached yet as done. ``underway`` holds those, by participant: ``{hidden}``, what the command
 * makes them, and ``landed``, the sequence it landed at (Infinity while it has no answer); each
 * the view has reached is dropped. A command's news can come after its answer (a POST's does),
 * and a page may read a view from before it: read alone, that view would have the GM's showing
 * of a token they had just hidden mean nothing, and the map hide it again.
 * @param {{present: Set<string>, hidden: Set<string>}} table
 * @param {number} seq
 * @param {Map<string, {hidden: boolean, landed: number}>} underway
 * @returns {{present: Set<string>, hidden: Set<string>}}
 */
export function known(table, seq, underway) {
  const hidden = new Set(table.hidden);
  for (const [participant, command] of underway) {
    if (seq >= command.landed) underway.delete(participant);
    else if (command.hidden) hidden.add(participant);
    else hidden.delete(participant);
  }
  return { present: table.present, hidden };
}
