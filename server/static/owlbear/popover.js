// The Owlbear Rodeo extension's popover. It follows one Seize table with the link this browser
// was given: the GM sees the GM's view and the one next action, a player their own characters
// and what they may do now. The link is kept in this browser only (kept.js), never in the room
// or the scene, which every player can read; the room holds only the table's address. Any player
// may rewrite that address, so it is checked before it is shown (roomTable) and never followed:
// each viewer follows their own link only. The map is the background page's (background.js); the
// popover links the tokens the GM chose there. It rolls with the table's own dice, too: the
// viewer's dice blink, and what they roll is shared in the room as Owlbear's Dice extension
// shares a roll (rolls.js), for everyone's popover and any extension that reads rolls so.

import OBR from "@owlbear-rodeo/sdk";
import {
  GM_BUSY, awareness, d10, declare, gmBusy, reactions,
} from "/static/shared/awareness.js";
import { Table, h } from "/static/shared/client.js";
import { button, card, keeping, report } from "/static/shared/forms.js";
import { declaring, diceFor, rcs } from "/static/shared/index-cards.js";
import { fourColor } from "/static/shared/panels.js";
import { hear, remember, remembered, tell } from "/static/owlbear/kept.js";
import { TABLE, TURN, parseLink, roomTable } from "/static/owlbear/map.js";
import { MOST, SIDES, shared, told } from "/static/owlbear/rolls.js";

const GAMES = { "four-color": fourColor, "megatraveller-rcs": rcs, awareness };
const root = document.getElementById("seize");
const ctx = { names: {}, table: null, view: null };
/** Seconds a roll asked here waits for the table's dice. */
const DICE_WAIT = 60;
const dice = { said: "", asking: false, others: [] }; // this viewer's roll, and the room's
let role = "PLAYER";
let choosing = null; // the tokens the GM is linking, from the context menu
let said; // what the room's metadata says of its table, as last heard

/** Owlbear's theme as the popover's colours. */
function paint(theme) {
  const style = document.documentElement.style;
  style.setProperty("--ink", theme.text.primary);
  style.setProperty("--muted", theme.text.secondary);
  style.setProperty("--accent", theme.primary.main);
  style.setProperty("--on-accent", theme.primary.contrastText);
  style.setProperty("--paper", theme.background.paper);
  document.documentElement.dataset.mode = theme.mode.toLowerCase();
}

/** What the room says of its table, under the popover: the address while this browser follows
 * no table, nothing once it does; where the value breaks roomTable's rules, that it is ignored
 * and which rule, never the value. */
function roomShown() {
  const line = document.getElementById("room");
  const found = roomTable(said, location.origin, ctx.table?.id ?? null);
  line.dataset.tone = found && "problem" in found ? "bad" : "";
  line.textContent = !found ? ""
    : "problem" in found ? `Seize ignores the table address in this room (${TABLE}): `
      + `${found.problem}. Only your own link is followed.`
      : ctx.table ? "" : `This room plays a table at ${found.address.server}.`;
}

/** The form that links this browser to the table, with the viewer's own link. */
function linking(problem) {
  const field = h("input", { name: "link", "aria-label": "Your Seize link", autocomplete: "off",
    placeholder: role === "GM" ? "Your GM link" : "Your player link" });
  const link = (event) => {
    event.preventDefault();
    const found = parseLink(field.value, location.origin);
    if (!found || found.gm !== (role === "GM")) {
      report(role === "GM" ? "That is not a GM link: open the console's “Open this console on "
        + "another device” and copy the GM link." : "That is not a player link: ask the GM for "
        + "yours (the phone link on your row of the console).");
      return;
    }
    if (found.server !== location.origin) {
      report(`That link is for the Seize at ${found.server}: install the extension from there.`);
      return;
    }
    remember(OBR.room.id, found);
    report("");
    follow(found);
  };
  root.replaceChildren(
    h("h1", {}, "Seize"),
    problem ? h("p", { class: "muted" }, problem) : null,
    h("p", {}, role === "GM"
      ? "Paste your GM link. It stays in this browser: the players never see it."
      : "Paste the player link your GM gave you. It stays in this browser."),
    h("form", { onsubmit: link }, field, h("button", { class: "primary", type: "submit" }, "Link")));
}

/** Stop following the table, forget the link, and ask for another. */
function unlink(problem) {
  ctx.table = null;
  remember(OBR.room.id, null);
  linking(problem);
  roomShown();
}

function follow(link) {
  // A table given up on may still speak (its socket closes in its own time): only the one
  // followed now is drawn.
  const followed = new Table(link.table, link.token, (view) => {
    if (ctx.table === followed) shown(view);
  }, { guard: true, onRevoked: () => {
    if (ctx.table === followed) unlink("That link was replaced or revoked: paste a new one.");
  } });
  ctx.table = followed;
  roomShown();
  followed.start().then(async () => {
    if (role === "GM") {
      await OBR.room.setMetadata({ [TABLE]: { server: link.server, table: link.table } });
    }
  }, () => {
    if (ctx.table === followed) unlink("That link no longer opens the table: paste a new one.");
  });
}

function shown(view) {
  ctx.view = view;
  const game = GAMES[view.system];
  ctx.names = game.names(view);
  // What is not there (no tokens being linked, no dice to roll) is left out, not drawn "null".
  keeping(root, () => root.replaceChildren(...[
    h("h1", {}, ctx.table.name ?? "Seize"),
    h("p", { class: "meta", "data-stage": "" }, `${game.title} · ${game.stage(view)}`),
    ...(role === "GM" ? gmView(view, game) : playerView(view)),
    rolling(),
    h("button", { type: "button", class: "quiet", "data-action": "unlink",
                  onclick: () => unlink() }, "Use another link")].filter(Boolean)));
}

/** The GM's: the one next action, who is at the table, and linking tokens. */
function gmView(view, game) {
  const step = game.next(view, ctx);
  const rows = game.roster(view, ctx);
  return [
    choosing ? chooser() : null,
    h("section", { id: "next" }, h("h2", { "data-prompt": "" }, step.prompt),
      h("div", { class: "controls" }, (step.controls ?? []).filter(Boolean))),
    h("ul", { class: "roster" }, rows.map((row) => h("li", {
      class: ["row", row.current && "current"].filter(Boolean).join(" "), "data-id": row.id,
      "aria-current": row.current ? "true" : undefined },
    h("strong", {}, row.name), " ", h("span", { class: "facts" }, row.facts),
    row.doing ? h("div", { class: "doing" }, row.doing) : null))),
  ];
}

/** Which participant the tokens chosen from the context menu stand for. */
function chooser() {
  const tokens = choosing;
  const link = (participant) => async () => {
    choosing = null;
    tell({ type: "chosen" });
    try {
      await OBR.scene.items.updateItems(tokens.map((token) => token.id), (items) => {
        for (const item of items) {
          if (participant) item.metadata[TURN] = { participant, place: null, acting: false };
          else delete item.metadata[TURN];
        }
      });
    } catch {
      // Owlbear refuses a scene's items while no scene is ready: the GM closed it meanwhile.
      report("Owlbear did not link the tokens (is the scene still open?): link them again.");
    }
    shown(ctx.view);
  };
  const people = Object.entries(ctx.names).filter(([id]) => id !== "editor");
  return h("section", { id: "linking" },
    h("h2", {}, `Link ${tokens.map((token) => token.name).join(", ")} to`),
    people.map(([id, name]) => h("button", { type: "button", "data-link": id,
                                              onclick: link(id) }, name)),
    h("button", { type: "button", onclick: link(null) }, "No one"));
}

/** Whose dice this viewer rolls: the GM's, or each of the player's own characters'. */
const owners = () => (role === "GM" ? [["gm", "the GM"]]
  : (ctx.table.you?.participants ?? []).filter((id) => ctx.names[id])
    .map((id) => [id, ctx.names[id]]));

/** Roll with the table's dice (docs/owlbear.md, "The table's dice"): Seize asks the viewer's own
 * dice, which blink; the roll comes back here and is shared in the room. Rolls shared by the
 * others in the room are listed under it. */
function rolling() {
  const mine = owners();
  if (!mine.length) return null;
  const who = h("select", { name: "owner", "data-keep": "dice-owner", "aria-label": "Whose dice" },
    mine.map(([id, name]) => h("option", { value: id }, name)));
  const count = h("input", { name: "count", type: "number", min: 1, max: MOST, value: "1",
                             class: "die", "data-keep": "dice-count", "aria-label": "How many" });
  const sides = h("select", { name: "sides", "data-keep": "dice-sides", "aria-label": "Which die" },
    SIDES.map((n) => h("option", { value: String(n), selected: n === 20 }, `d${n}`)));
  const roll = (event) => {
    event.preventDefault();
    const asked = { owner: who.value, sides: Number(sides.value),
                    count: Math.min(MOST, Math.max(1, Math.trunc(Number(count.value)) || 1)) };
    rollWithTheTable(asked, mine.find(([id]) => id === asked.owner)[1]);
  };
  return h("section", { id: "dice" }, h("h2", {}, "Roll with your dice"),
    h("form", { onsubmit: roll }, mine.length > 1 ? who : null, count, sides,
      h("button", { type: "submit", "data-action": "roll", disabled: dice.asking }, "Roll")),
    h("p", { "data-rolled": "", class: "muted" }, dice.said),
    dice.others.length ? h("ul", { "data-room-rolls": "" }, dice.others.map(({ name, roll: r }) =>
      h("li", {}, `${name} rolled ${r.dice} with their dice: ${r.faces.join(", ")}`))) : null);
}

/** Ask the table's dice; say what came of it, and share the roll in the room. */
async function rollWithTheTable({ owner, sides, count }, name) {
  dice.asking = true;
  dice.said = `Roll ${count}d${sides} now, with ${name === "the GM" ? "your" : `${name}'s`} `
    + "dice: they blink.";
  redraw();
  const rolled = await ctx.table.roll({ owner, sides, count, wait: DICE_WAIT });
  dice.asking = false;
  if (rolled.faces) {
    dice.said = `You rolled ${count}d${sides}: ${rolled.faces.join(", ")}.`;
    await OBR.player.setMetadata(shared(crypto.randomUUID(), sides, rolled.faces));
  } else {
    dice.said = {
      "timed-out": "No die was rolled in time: nothing is shared.",
      refused: `Seize did not ask the dice: ${rolled.message}`,
    }[rolled.why] ?? "Seize cannot be reached just now: nothing was rolled.";
  }
  redraw();
}

/** The rolls the others in the room shared, from their player metadata. */
function heardRolls(players) {
  dice.others = players.map((player) => ({ name: player.name, roll: told(player.metadata) }))
    .filter((one) => one.roll);
  redraw();
}

function redraw() {
  if (ctx.view && ctx.table) shown(ctx.view);
}

/** One of the player's characters, and what they may do now. */
const mine = (id, name, facts, doing, actions) => h("li", { class: "row", "data-id": id },
  h("strong", {}, name), " ", facts, doing ? h("div", { class: "doing" }, doing) : null,
  h("div", { class: "actions" }, actions.flat().filter(Boolean)));

/** What each game lets a player do, from the pages' shared controls. */
const PLAYS = {
  "four-color": (v, id) => {
    const held = v.order.find((c) => c.holder === id);
    const answering = v.offers.filter((o) => o.partner === id);
    return [held ? card(held.card) : null,
      v.current?.acting === id ? "Your Panel: act now!" : held ? "Your card is still to play" : "",
      [...answering.map((o) => button(ctx.table, `Accept ${ctx.names[o.hero]}'s trade`,
        { type: "accept_trade", offer: o.offer },
        { primary: true, name: `accept-${o.offer}`, names: ctx.names })),
      ...(held && !v.offers.some((o) => o.hero === id) ? v.members
        .filter((m) => m.id !== id && m.kind === "hero" && v.order.some((c) => c.holder === m.id))
        .map((m) => button(ctx.table, `Offer a trade to ${m.name}`,
          { type: "offer_trade", hero: id, partner: m.id }, { name: `offer-${m.id}`, names: ctx.names }))
        : [])]];
  },
  "megatraveller-rcs": (v, id) => {
    const entry = v.line.find((e) => e.character === id);
    const rolling = v.awaiting.find((a) => a.what === "roll")?.who.includes(id);
    const holder = v.token === id;
    return [entry && !rolling ? `Initiative ${entry.initiative}` : "",
      rolling ? "Roll your initiative, or type what the dice show"
        : holder ? (v.declared ? `You declared: ${v.declared.what}` : "You hold the token: declare")
          : entry?.tapped ? "Your turn is done" : "",
      [v.may_seize.includes(id) ? button(ctx.table, "Seize the initiative!",
        { type: "seize", character: id }, { primary: true, name: `seize-${id}`, names: ctx.names })
        : null,
      rolling ? diceFor(v, ctx, id, "Enter my roll") : null,
      holder && !v.declared ? declaring(v, ctx, id) : null]];
  },
  awareness: (v, id) => {
    const c = v.characters.find((each) => each.id === id);
    const pending = v.exchange?.pending.find((p) => p.character === id);
    const rolling = v.awaiting.some((a) => a.what === "initiative" && a.who.includes(id));
    return [c.initiative ? `QR ${c.initiative.qr} · Score ${c.initiative.score}` : "",
      v.declaring === id ? "Your declaration: act or wait" : c.waits ? "Waiting" : "",
      [v.declaring === id ? declare(v, ctx, id) : null,
        pending ? d10(ctx, id, "Enter my d10", { type: "enter_preemption", character: id },
                      "enter-preemption") : null,
        rolling ? d10(ctx, id, "Enter my initiative d10",
                      { type: "enter_initiative", character: id }, "enter-initiative") : null,
        v.exchange && v.may_react.includes(id) ? reactions(v, ctx, id) : null]];
  },
};

/** The player's: their own characters first, then whose turn it is. */
function playerView(view) {
  const own = ctx.table.you?.participants ?? [];
  const acting = new Set(actingNow(view));
  return [
    h("ul", { id: "yours" }, own.filter((id) => ctx.names[id]).map((id) => mine(id, ctx.names[id],
      ...PLAYS[view.system](view, id)))),
    h("h2", {}, "The table"),
    ...(view.system === "awareness" && gmBusy(view)
      ? [h("p", { class: "now", "data-gm-busy": "" }, GM_BUSY)] : []),
    h("ol", { class: "order" }, Object.entries(ctx.names).filter(([id]) => id !== "editor")
      .map(([id, name]) => h("li", { "data-id": id,
                                     "aria-current": acting.has(id) ? "true" : undefined },
        name))),
  ];
}

/** Who acts now, in any game's view. */
function actingNow(view) {
  if (view.system === "four-color") return [view.current?.acting ?? view.current?.holder];
  if (view.system === "megatraveller-rcs") return [view.token];
  // While the table waits on the GM (someone hidden from this player at work), no one is.
  return gmBusy(view) ? [] : [view.declaring, view.exchange?.act.character];
}

OBR.onReady(async () => {
  const [theme, viewer] = await Promise.all([OBR.theme.getTheme(), OBR.player.getRole()]);
  paint(theme);
  OBR.theme.onChange(paint);
  role = viewer;
  OBR.room.onMetadataChange((metadata) => {
    said = metadata[TABLE];
    roomShown();
  });
  said = (await OBR.room.getMetadata())[TABLE];
  roomShown();
  if (role === "GM") {
    hear("choose", ({ tokens }) => {
      choosing = tokens;
      if (ctx.view) shown(ctx.view);
      else report("Link this room to its Seize table first: paste your GM link.");
    });
    tell({ type: "ready" }); // tokens chosen before the popover was open
  }
  OBR.party.onChange(heardRolls);
  heardRolls(await OBR.party.getPlayers());
  const saved = remembered(OBR.room.id);
  if (saved) follow(saved);
  else linking();
});
