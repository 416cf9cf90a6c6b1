// The extension's background page: it runs while the room is open, whether or not anyone opens
// the popover. For a GM it offers "Link to Seize…" on character tokens, and, in the one GM's
// client the room elects, follows the table and writes its public order onto the linked tokens,
// rings the acting one, and turns the GM's hiding or showing of a token into Seize's commands.
// Players' clients do nothing here: they never write to the room. Scene items are read and
// written only while a scene is open and ready (Owlbear refuses them otherwise); the room's table
// address, which any player may rewrite, is checked and put back.

import OBR, { buildShape } from "@owlbear-rodeo/sdk";
import { Table } from "/static/shared/client.js";
import { hear, remembered, tell } from "/static/owlbear/kept.js";
import {
  KEY, MARKER, TABLE, TURN, elected, participantOf, participants, places, roomTable, says,
  known, visibilityCommands, wanted,
} from "/static/owlbear/map.js";

const seen = new Map(); // each token's last visibility, to see the GM hide or show it
let writer = false; // this client is the GM's client elected to write the map
let table = null; // the table followed, with the GM's link
let view = null; // its GM view
let viewSeq = 0; // …and that view's sequence
const underway = new Map(); // participant → the GM's hiding or showing here, until the view has it
let ready = false; // a scene is open and ready: only then may its items be read or written
let said; // what the room's metadata says of its table, as last heard

/** Follow the table of ``link`` (a GM link), or none. */
function follow(link) {
  view = null;
  if (!link?.gm) {
    table = null;
    return;
  }
  const followed = new Table(link.table, link.token, (shown, seq) => {
    if (table !== followed) return; // a link replaced since
    view = shown;
    viewSeq = seq;
    mapped().catch(() => {});
    claimRoom().catch(() => {});
  });
  table = followed;
  followed.start().catch(() => { if (table === followed) table = null; });
}

let writing = Promise.resolve();

/** The elected GM's client brings the map to the table; one write after another. */
function mapped() {
  writing = writing.then(writeMap, writeMap);
  return writing;
}

/** The public order as Foundry's dialect has it (what every player may see): each turn's
 * participant, whether it has a place, and whether it is current. */
async function publicOrder() {
  const answer = await fetch(`${table.base}/foundry/combat?as=public`,
                             { headers: table.headers() });
  if (!answer.ok) return null;
  return places({ turns: (await answer.json()).combatants.map((c) => ({
    participant: c.flags.seize.participant, placed: c.initiative !== null,
    current: c.flags.seize.current })) });
}

async function writeMap() {
  if (!writer || !view || !ready) return;
  const order = await publicOrder();
  if (!order || !ready) return; // the scene may have closed while Seize answered
  const items = await OBR.scene.items.getItems();
  const linked = items.filter((item) => participantOf(item));
  const want = wanted(linked, order);
  const { hidden } = known(participants(view), viewSeq, underway);
  // Seize may hide a token whose participant it hides; it never shows what the GM hid.
  const hide = new Set(linked.filter((item) => item.visible && hidden.has(participantOf(item)))
    .map((item) => item.id));
  const stale = linked.filter((item) => !says(item, want.get(item.id)) || hide.has(item.id));
  if (stale.length) {
    for (const id of hide) seen.set(id, false);
    await OBR.scene.items.updateItems(stale.map((item) => item.id), (drafts) => {
      for (const draft of drafts) {
        draft.metadata[TURN] = want.get(draft.id);
        if (hide.has(draft.id)) draft.visible = false;
      }
    });
  }
  await mark(items, linked.find((item) => want.get(item.id).acting));
}

/** One ring on the acting token, and none elsewhere; on a token the GM hid (one Seize revealed
 * as it acted), a ring only the GM sees, so that it gives away no place on the map. */
async function mark(items, acting) {
  const rings = items.filter((item) => item.metadata[MARKER]);
  const kept = rings.filter((ring) => acting && ring.attachedTo === acting.id
                                       && ring.visible === acting.visible);
  const gone = rings.filter((ring) => !kept.includes(ring)).map((ring) => ring.id);
  if (gone.length) await OBR.scene.items.deleteItems(gone);
  if (!acting || kept.length) return;
  const ring = buildShape().shapeType("CIRCLE").width(160).height(160)
    .position(acting.position).attachedTo(acting.id).layer("ATTACHMENT").locked(true)
    .visible(acting.visible)
    .disableHit(true).fillOpacity(0).strokeColor("#f59e0b").strokeWidth(10).strokeOpacity(1)
    .name("Seize: acting now").metadata({ [MARKER]: true }).build();
  await OBR.scene.items.addItems([ring]);
}

/** The GM's hiding or showing of a linked token in Owlbear, as Seize's commands, on the socket
 * the table is followed on (``Table.send``: a POST under the same key when it cannot carry them).
 * They are sent unguarded: hiding someone means the same whatever the table did meanwhile. A
 * refusal is Owlbear's to show, as the popover may be closed. */
async function followHiding(items) {
  const knows = view ? known(participants(view), viewSeq, underway)
    : { present: new Set(), hidden: new Set() };
  const commands = visibilityCommands(items, seen, knows);
  if (!writer || !view) return;
  for (const command of commands) {
    const mine = { hidden: command.type === "hide", landed: Infinity };
    underway.set(command.participant, mine);
    try {
      const { ok, body } = await table.send(command);
      if (ok) mine.landed = body.seq;
      else await OBR.notification.show(`Seize: ${body?.message ?? "not done"}`, "ERROR");
    } finally { // refused or lost, it changed nothing: the view stands as it is
      if (mine.landed === Infinity && underway.get(command.participant) === mine) {
        underway.delete(command.participant);
      }
    }
  }
}

/** A scene opened and ready (``now``), or closed. Opened: the tokens are first seen as they
 * stand (the GM's earlier hiding is not a command), and the map is brought to the table, which
 * may have moved on meanwhile. Closed: nothing touches the items until one is ready again. */
async function sceneReady(now) {
  ready = now;
  seen.clear();
  if (!now) return;
  for (const item of await OBR.scene.items.getItems()) {
    if (!seen.has(item.id)) seen.set(item.id, item.visible); // a change heard since is newer
  }
  mapped().catch(() => {});
}

/** The elected GM's client keeps the room's table address, which every player may rewrite:
 * anything else found there is put back, and the GM told why, unless it was merely another table
 * of this server's (a link this GM has just replaced). */
async function claimRoom() {
  if (!writer || !view || roomTable(said, location.origin, table.id)?.address) return;
  const wrong = roomTable(said, location.origin)?.problem;
  said = { server: location.origin, table: table.id };
  await OBR.room.setMetadata({ [TABLE]: said });
  if (wrong) {
    await OBR.notification.show(`Seize: the room's table address was rewritten (${wrong}); `
      + "it is put back.", "WARNING");
  }
}

OBR.onReady(async () => {
  if (await OBR.player.getRole() !== "GM") return;
  const self = await OBR.player.getConnectionId();
  const elect = (others) => {
    writer = elected(self, others);
    mapped().catch(() => {});
    claimRoom().catch(() => {});
  };
  OBR.scene.items.onChange((items) => {
    if (ready) followHiding(items).then(mapped).catch(() => {});
  });
  OBR.scene.onReadyChange((now) => { sceneReady(now).catch(() => {}); });
  sceneReady(await OBR.scene.isReady()).catch(() => {});
  OBR.room.onMetadataChange((metadata) => {
    said = metadata[TABLE];
    claimRoom().catch(() => {});
  });
  said = (await OBR.room.getMetadata())[TABLE];
  elect(await OBR.party.getPlayers());
  OBR.party.onChange(elect);
  hear("linked", ({ room, link }) => { if (room === OBR.room.id) follow(link); });
  follow(remembered(OBR.room.id));
  await OBR.contextMenu.create({
    id: `${KEY}/link`,
    icons: [{ icon: "/owlbear/icon.svg", label: "Link to Seize…",
              filter: { roles: ["GM"], every: [{ key: "layer", value: "CHARACTER" }] } }],
    onClick: (context) => {
      choosing = { type: "choose", tokens: context.items.map((item) => ({
        id: item.id, name: item.text?.plainText || item.name })) };
      tell(choosing);
      OBR.action.open();
    },
  });
});

// The popover may open only now: it says so, and hears what the GM chose.
let choosing = null;
hear("ready", () => { if (choosing) tell(choosing); });
hear("chosen", () => { choosing = null; });
