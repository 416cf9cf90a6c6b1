// The player page, /play/{id}?token=…, phone first. Top to bottom: what the player must do now
// (their own step), then the table (who plays now, the order, whose dice are still to come),
// then their characters with offers made to them and big buttons for exactly what they may do
// now. The view it gets is already cut to the player's role.

import { Table, h, tableId } from "/static/shared/client.js";
import {
  GM_BUSY, awareness as awarenessPlayed, d10, declaration, declare, forWhat, gmBusy, happened,
  panics, reactions, sitsOut,
} from "/static/shared/awareness.js";
import {
  aimed, button, card, heardRollers, keeping, linkShown, report, takenBack,
} from "/static/shared/forms.js";
import {
  TALLY, declaring, diceFor, lapsing, rcs as rcsPlayed,
} from "/static/shared/index-cards.js";
import { fourColor as fourColorPlayed } from "/static/shared/panels.js";
import { alerting } from "/static/play/alerts.js";
import { dice } from "/static/play/dice.js";
import { TurnClock, inPlay } from "/static/shared/clock.js";
import { playerNotice } from "/static/shared/plain-http.js";

const token = new URLSearchParams(location.search).get("token") ?? "";
// This link's own manifest (server/http/pages.py): installed, the app opens this page.
document.querySelector("link[rel=manifest]").href =
  `/play/${encodeURIComponent(tableId())}/manifest.webmanifest?token=${encodeURIComponent(token)}`;
const step = document.getElementById("step");
const yours = document.getElementById("yours");
const table = document.getElementById("table");

/** One of the player's characters: its step, for the top of the page (what it must do now,
 * and any reminder), and its card: what the player knows of it, what they may do now. */
const mine = (id, name, facts, doing, actions, reminder = null) => ({
  step: [doing ? h("p", { class: "doing", "data-doing": id }, doing) : null,
         reminder ? h("p", { class: "reminder", "data-reminder": id }, reminder) : null],
  card: h("article", { class: "mine", "data-id": id },
    h("h2", {}, name), h("div", { class: "facts" }, facts),
    h("div", { class: "actions" }, actions.filter(Boolean))),
});

/** Whose dice the table still awaits, by the names the player's view gives them: a hidden
 * participant is not in it, and is not hinted at. */
const gathering = (ids, who) => {
  const named = ids.filter((id) => who[id]).map((id) => who[id]);
  return named.length ? h("p", { class: "gathering", "data-gathering": "" },
    `Dice still to come for: ${named.join(", ")}`) : null;
};

/** What an RCS table says while the round's dice come in: no card lies yet (ruling 3). */
const LAID = "the cards are laid in order once every roll is in";

/** What a Four Color page's table says while no card is in play or still to play. */
const PAGE = {
  setup: () => "No page dealt yet",
  dealing: (v) => `Page ${v.page}: the cards are being dealt`,
  panels: (v) => `Page ${v.page}`,
  page_done: (v) => `Page ${v.page} is done: the Editor turns the page`,
  ended: () => "The scene is over",
};

function fourColor(v, ctx, own) {
  const who = ctx.names;
  const heroes = v.members.filter((m) => m.kind === "hero");
  const heroCards = v.order.filter((c) => own.has(c.holder));
  const offers = (id) => v.offers.filter((o) => o.hero === id || o.partner === id).map((o) => {
    const answering = o.partner === id;
    return h("div", { class: "offer", "data-offer": o.offer },
      h("p", {}, answering ? `${who[o.hero]} offers you a trade`
        : `You offered a trade to ${who[o.partner]}`),
      answering ? button(ctx.table, "Accept the trade", { type: "accept_trade", offer: o.offer },
                         { primary: true, name: `accept-${o.offer}`, names: who }) : null,
      button(ctx.table, answering ? "Decline" : "Withdraw the offer",
             { type: "decline_trade", offer: o.offer },
             { name: `decline-${o.offer}`, names: who }));
  });
  const cards = heroes.filter((m) => own.has(m.id)).map((m) => {
    const holding = heroCards.find((c) => c.holder === m.id);
    const offering = v.offers.some((o) => o.hero === m.id);
    return mine(m.id, m.name, holding ? [card(holding.card)] : [],
      inPlay(v)?.acting === m.id ? "Your Panel: act now!" : holding ? "Your card is still to play"
        : v.to_deal.includes(m.id) ? "A card is coming to you"
        : v.phase === "ended" ? "The scene is over" : "No card to play",
      // Offers made to the player first; the trades they could offer folded behind one button.
      // A trade is with someone who still holds a card to play: the others would be refused.
      [...offers(m.id), holding && !offering ? h("details", { class: "more trades",
                                                               "data-fold": `trades-${m.id}` },
        h("summary", {}, "Offer a trade…"),
        [...heroes.filter((o) => o.id !== m.id && v.order.some((c) => c.holder === o.id)),
         { id: "editor", name: "the Editor" }]
          .map((p) => button(ctx.table, `Offer a trade to ${p.name}`,
            { type: "offer_trade", hero: m.id, partner: p.id },
            { name: `offer-${p.id}`, names: who }))) : null]);
  });
  const now = inPlay(v);
  const order = [
    now ? h("p", { class: "now" }, "Now: ", card(now.card),
      ` ${who[now.acting] ?? now.element ?? "the Editor"}`,
      now.editorial_control ? " (Editorial Control!)" : "") : null,
    h("ol", { class: "order" }, v.order.map((c) => h("li", {}, card(c.card),
      ` ${who[c.acting] ?? who[c.holder] ?? ""}`))),
    v.hidden_cards ? h("p", { class: "muted" }, `The Editor holds ${v.hidden_cards} more `
      + `card${v.hidden_cards === 1 ? "" : "s"}, face down`) : null,
    now || v.order.length || v.hidden_cards ? null
      : h("p", { class: "muted", "data-page": v.phase }, PAGE[v.phase](v)),
  ];
  return { cards, order };
}

function rcs(v, ctx, own) {
  const who = ctx.names;
  const rolling = v.awaiting.find((a) => a.what === "roll")?.who ?? [];
  const cards = v.characters.filter((c) => own.has(c.id)).map((c) => {
    const entry = v.line.find((e) => e.character === c.id);
    const pool = v.pools[c.side] ?? 0;
    const holder = v.token === c.id;
    const spend = (points, label) => button(ctx.table, label, { type: "spend_tactics",
      side: c.side, character: c.id, points, purpose: "initiative", note: "" },
      { name: `tactics-${points > 0 ? "up" : "down"}`, names: who });
    const movable = entry && !entry.tapped && v.phase === "round" && pool > 0;
    return mine(c.id, c.name,
      entry && !rolling.includes(c.id) ? [h("span", { class: "big" },
        `Initiative ${entry.initiative}${entry.tally ? ` ${"|".repeat(entry.tally)}` : ""}`)] : [],
      v.out.includes(c.id) ? "Out of the fight"
        : rolling.includes(c.id) ? `Roll for ${c.name}: your ${v.options.initiative_dice}D`
          + `${v.options.die_sides}, ${yourRoll(ctx, c.id)}`
        : v.phase === "rolling" ? "Your roll is in"
        : holder ? (v.declared ? `You declared: ${v.declared.what}${aimed(v.declared)}`
                               : "You hold the token: declare your action"
                                 + (entry?.short_actions_left === 1
                                   ? " (one Short Action left)" : ""))
        : v.may_seize.includes(c.id) ? "You may seize the initiative now"
        : entry?.tapped ? "Tapped: your turn is done"
        : entry?.marker ? "One Short Action left" : "",
      [
        v.may_seize.includes(c.id) ? button(ctx.table, "Seize the initiative!",
          { type: "seize", character: c.id }, { primary: true, name: `seize-${c.id}`, names: who })
          : null,
        rolling.includes(c.id) ? diceFor(v, ctx, c.id, "Enter my roll") : null,
        holder && !v.declared ? declaring(v, ctx, c.id) : null,
        holder && !v.declared && entry?.short_actions_left === 1 ? button(ctx.table, "End my turn",
          { type: "end_turn", character: c.id }, { name: `end-turn-${c.id}`, names: who }) : null,
        movable ? spend(-1, `Tactics −1: sooner (${pool} left)`) : null,
        movable ? spend(1, "Tactics +1: later") : null,
      ]);
  });
  const present = v.characters.filter((c) => !v.out.includes(c.id)).map((c) => c.name);
  const order = [
    v.phase === "setup" ? h("p", { class: "muted", "data-page": v.phase },
      present.length ? `No round yet. At the table: ${present.join(", ")}` : "No one here yet")
    : v.phase === "rolling" ? h("p", { class: "muted", "data-page": v.phase },
      `Round ${v.round}: ${LAID}`) : null,
    h("ol", { class: "order" }, v.line.map((e) => h("li", {
    class: [e.token && "token", e.tapped && "tapped"].filter(Boolean).join(" ") || undefined },
  `${who[e.character]} ${e.initiative}${e.tally ? ` ${"|".repeat(e.tally)}` : ""}`,
  e.token ? ` · holds the token${e.short_actions_left === 1 ? ", one Short Action left" : ""}`
    : e.tapped ? " · tapped" : e.marker ? " · one Short Action left" : ""))),
  v.line.some((e) => e.tally) ? h("p", { class: "muted", "data-legend": "tally" }, TALLY) : null,
  v.declared ? h("p", {}, `${who[v.declared.character]} declares: ${v.declared.what}`
    + aimed(v.declared)) : null];
  return { cards, order, gathered: [gathering(rolling, who)] };
}

/** Where the player's own roll goes, as the server last said who can send one (``/dice``'s
 * ``rollers``): their own die, the tray, or typed on this page. Before it has said, the tray,
 * as the pre-emption buttons assume (``reactions``). */
function yourRoll(ctx, id) {
  if (ctx.rollers?.dice.has(id)) return "with your own die (or typed below)";
  if (!ctx.rollers || ctx.rollers.tray) return "in the tray or typed below";
  return "rolled and typed below";
}

function awareness(v, ctx, own) {
  const who = ctx.names;
  const cards = v.characters.filter((c) => own.has(c.id)).map((c) => {
    const pending = v.exchange?.pending.find((p) => p.character === c.id);
    const reaction = v.exchange?.reactions.find((r) => r.character === c.id);
    const i = c.initiative;
    const rolling = v.awaiting.some((a) => a.what === "initiative" && a.who.includes(c.id));
    const done = (v.exchange ?? v.concluded)?.resolved.find((r) => r.character === c.id);
    const answering = v.exchange && v.may_react.includes(c.id);
    // A wait declared in an earlier round carries over (ruling 8): until this round's
    // declarations, and after them if it made none, the player is reminded of it.
    const fresh = v.phase !== "rolling" && v.declarations.some((d) => d.character === c.id);
    const still = c.waits && !fresh;
    const waiting = !c.waits ? null : still
      ? `${c.name} is still waiting${c.waiting ? forWhat(c.waiting) : ""}`
      : `Waiting${forWhat(c.waiting)}`;
    const doing = done && !done.performed ? "Your action could not happen: you were pre-empted"
      : pending ? `Your pre-emption of ${who[pending.to]} waits for your d10: ${yourRoll(ctx, c.id)}`
      : reaction ? reacting(reaction, who)
      : rolling ? `Roll for ${c.name}: your d${v.options.die_sides}, ${yourRoll(ctx, c.id)}`
      : v.declaring === c.id ? (panics(v, c)
        ? `Your declaration: act all-out (QR ${i.qr}: panic)` : "Your declaration: act or wait")
      : answering ? "You may react now: pre-empt, or go just after"
      : waiting ?? (c.acted ? "You have acted" : sitsOut(v, c) ?? "");
    return mine(c.id, c.name,
      i ? [h("span", { class: "big", "data-initiative": "" },
        `QR ${i.qr} · Score ${i.score}${i.die ? ` · d10 ${i.die}` : ""}`)] : [],
      doing, [
        v.declaring === c.id ? declare(v, ctx, c.id) : null,
        pending ? d10(ctx, c.id, "Enter my d10", { type: "enter_preemption", character: c.id },
                      "enter-preemption") : null,
        rolling ? d10(ctx, c.id, "Enter my initiative d10",
                      { type: "enter_initiative", character: c.id }, "enter-initiative") : null,
        answering ? reactions(v, ctx, c.id) : null,
      ].flat(), (still || answering) && waiting !== doing ? waiting : null);
  });
  const order = [
    v.declaring ? h("p", { class: "now" }, `Declaring now: ${who[v.declaring]}`) : null,
    gmBusy(v) ? h("p", { class: "now", "data-gm-busy": "" }, GM_BUSY) : null,
    v.exchange ? h("p", {}, `${who[v.exchange.act.character]} acts: ${v.exchange.act.what}`) : null,
    v.exchange ? exchanged(v.exchange, who) : null,
    !v.exchange && v.concluded ? h("p", {}, `${who[v.concluded.act.character]} acted: `
      + v.concluded.act.what) : null,
    !v.exchange && v.concluded ? exchanged(v.concluded, who) : null,
    h("ol", { class: "order" }, v.declarations.map((d) => declared(v, d, who))),
  ];
  // A player's view names no one else's pending d10 (only their own): the table says the dice
  // are coming in, without saying whose.
  const gathered = v.phase === "rolling" ? [h("p", { class: "gathering", "data-gathering": "" },
    `Round ${v.round}: initiative dice still coming in`)] : [];
  return { cards, order, gathered };
}

/** One of the round's declarations, in order; ticked once its character has acted (a waiter
 * who pre-empted someone included), so the list is not read as what is still to come. Not
 * struck through: that reads as called off. */
function declared(v, d, who) {
  const said = declaration(d, who[d.character]);
  const acted = v.characters.find((c) => c.id === d.character)?.acted;
  return acted ? h("li", { class: "muted", "data-acted": "" }, `✓ ${said} · done`)
    : h("li", {}, said);
}

/** A pre-emption whose d10 failed: its character goes just after, not before (ruling 10). */
const failed = (r) => r.preempt && r.placed === "after";

/** The player's own reaction, as their card says it. */
function reacting(r, who) {
  const die = r.die ? ` (d10 ${r.die})` : "";
  if (failed(r)) return `Your pre-emption of ${who[r.to]} failed${die}: you go just after`;
  return `You ${r.preempt ? "pre-empt" : "react to"} ${who[r.to]}: you go just ${r.placed}${die}`;
}

/** An exchange as the table has seen it so far: who reacts to whom, until they are resolved,
 * then what came of each action, an action pre-empted away included ("Lurker pre-empted Ana:
 * acted first", or the outcome the GM gave). */
function exchanged(exchange, who) {
  const resolved = new Set(exchange.resolved.map((r) => r.character));
  const lines = [
    ...exchange.reactions.filter((r) => !resolved.has(r.character)).map((r) =>
      `${who[r.character]} ${failed(r) ? "tried to pre-empt" : r.preempt ? "pre-empts"
        : "reacts to"} ${who[r.to]}: just ${r.placed}`),
    ...exchange.resolved.map((r) => (!r.performed
      ? `${who[r.character]}: could not happen${r.outcome ? ` (${r.outcome})` : ""}`
      : r.outcome ? `${who[r.character]}: ${r.outcome}` : happened(exchange, r, who))),
  ];
  return lines.length ? h("ul", { class: "exchange" }, lines.map((l) => h("li", {}, l))) : null;
}

/** A player whose declaration lapsed (RCS ruling 6: seized from, or passed by a latecomer's
 * card) is told so, as news: it did not happen, and they declare again when the token comes
 * back, the form offering the lapsed words (``ctx.lapsed``). Said once the view the event came
 * with is drawn, so that a seizer who was hidden until it acted is named; taken away once that
 * character declares again. A referee's ruled interrupt only suspends a declaration. */
let lapsedSaid = null;
function lapsedNotice(event) {
  if (!event) return;
  lapsing(ctx.lapsed, event);
  // It goes once that character declares again: not when the seizer (or anyone else)
  // declares, which comes at once, before the player could have read it.
  if (lapsedSaid && event.type === "declared"
      && event.declaration?.character === lapsedSaid.character) {
    if (document.getElementById("notice")?.textContent === lapsedSaid.text) report("");
    lapsedSaid = null;
  }
  const lapsed = event.lapsed;
  if (!lapsed?.character || event.ruled_interrupt) return;
  const mine = ctx.table.you?.participants ?? [];
  if (!mine.includes(lapsed.character)) return;
  queueMicrotask(() => {
    const name = ctx.names[lapsed.character] ?? "your character";
    const why = event.type === "seized"
      ? `${ctx.names[event.character] ?? "someone"} seized the initiative`
      : `${ctx.names[event.roll?.character] ?? "a latecomer"}'s card came in ahead of it`;
    const whose = mine.length > 1 ? ` for ${name}` : "";
    lapsedSaid = { character: lapsed.character, text: `Your declaration${whose} (${lapsed.what}) `
      + `lapsed: ${why}. You declare again${whose} when the token comes back.` };
    report(lapsedSaid.text, { tone: "told" });
  });
}

// Each game: how this page draws it, and what the console already knows of it (names, stage).
const GAMES = {
  "four-color": [fourColor, fourColorPlayed],
  "megatraveller-rcs": [rcs, rcsPlayed],
  awareness: [awareness, awarenessPlayed],
};

const ctx = { names: {}, view: null, table: null, onView: null, lapsed: new Map(),
              redraw: () => ctx.view && ctx.table.onView(ctx.view, ctx.table.shown) };
const alerts = alerting(() => ctx.names, () => ctx.table);
const turnClock = new TurnClock(`/api/tables/${encodeURIComponent(tableId())}`, token);
// Guarded: a press is on the view it was made on, or refused (409) and nothing changes; a
// "Seize the initiative!" against a table that just moved on is not taken as meant for the next.
ctx.table = new Table(tableId(), token, (view, seq) => {
  ctx.view = view;
  const [render, game] = GAMES[view.system];
  ctx.names = game.names(view);
  const own = new Set(ctx.table.you?.participants ?? []);
  const shown = render(view, ctx, own);
  document.getElementById("title").textContent = ctx.table.name ?? "Seize";
  alerts.told(view, ctx.table.name ?? "Seize");
  document.getElementById("meta").textContent = `${game.title} · ${game.stage(view)}`;
  document.body.dataset.seq = String(seq);
  const timed = turnClock.see(view, (id) => ctx.names[id] ?? id, { seq });
  step.replaceChildren(...[timed.hidden ? null : timed,
    ...shown.cards.flatMap((c) => c.step)].filter(Boolean));
  // A list the player unfolded stays open as the table moves on around them (keeping).
  keeping(yours, () => yours.replaceChildren(...(shown.cards.length ? shown.cards.map((c) => c.card)
    : [h("p", { class: "muted" }, "None of your characters is at this table yet.")])));
  table.replaceChildren(h("h2", {}, "The table"),
    ...[...(shown.gathered ?? []), ...shown.order].filter(Boolean));
  ctx.onView?.(view);  // the player's own dice (dice.js)
}, { onEvent: (_, event) => { turnClock.heard(event); takenBack(event); lapsedNotice(event); },
  onLink: linkShown,
  guard: true,
  onRevoked: (status) => report(status === 404 ? "The server does not hold this table now (it "
    + "may have been started on another database): this page opens it again once it is back."
    : "This link no longer opens the table: ask the GM for a new one.") });
ctx.table.start().then(() => {
  const plain = playerNotice();  // once, on a link without a secure context
  if (plain) document.getElementById("play").prepend(plain);
  document.getElementById("play").append(alerts.panel());
  document.querySelector("header").append(h("a", { class: "story", "data-link": "timeline",
    href: `/tables/${encodeURIComponent(tableId())}/timeline?token=${encodeURIComponent(token)}`,
    target: "_blank", rel: "noopener" }, "The fight's story"));
  // The games rolled with dice offer the player's own smart dice, and say where a roll goes.
  if (ctx.view.system !== "four-color") {
    document.getElementById("play").append(dice(ctx));
    rollers();
  }
}, () => report("This link does not open a table: ask the GM for a new one."));

/** Who can send a roll (a tray, the player's own dice), asked of the server now and every
 * ``ROLLERS_EVERY`` ms while the page is in sight: a tray plugged in or unplugged mid-fight
 * changes what the page offers. A failed ask leaves what was last heard; a link that no
 * longer opens the table (401, 403) stops asking. */
const ROLLERS_EVERY = 10000;
async function rollers() {
  if (!document.hidden) {
    const answer = await fetch(`${ctx.table.base}/dice`, { headers: ctx.table.headers() })
      .catch(() => null);
    if (answer?.status === 401 || answer?.status === 403) return;
    if (answer?.ok) heardRollers(ctx, (await answer.json()).rollers);
  }
  setTimeout(rollers, ROLLERS_EVERY);
}
