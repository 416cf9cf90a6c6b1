// The Four Color Hack at the Editor's console: heroes, villains and mobs with their cards, the
// Editor's secret extra cards and jokers, the next Panel as the one obvious step, and trades.

import { h } from "/static/shared/client.js";
import {
  button, card, cardText, inline, input, joining, labelled, possessive, run, select,
} from "/static/shared/forms.js";

const KINDS = { hero: "Hero", villain: "Villain", mob: "Mob" };
const EDITOR = "editor";

const names = (v) => ({ [EDITOR]: "the Editor",
                        ...Object.fromEntries(v.members.map((m) => [m.id, m.name])) });

/** Who acts on a card: its villain or mob, its Element, or its holder. */
function actor(c, who) {
  if (c.acting) return who[c.acting];
  if (c.element) return c.element;
  return c.holder === EDITOR ? "the Editor's extra card" : who[c.holder];
}

const editorsOwn = (v) => v.members.filter((m) => m.kind !== "hero");
const isJoker = (code) => code === "RJ" || code === "BJ";

/** One of the Editor's cards for a villain or mob, or an Element; or a joker played now. */
function spend(ctx, code, { label, primary = false, play = false } = {}) {
  const v = ctx.view;
  const acting = select("Villain or mob", editorsOwn(v).map((m) => [m.id, m.name]),
                        { keep: `acting-${code}` });
  const element = input("or an Element", { keep: `element-${code}`,
                                           placeholder: play ? undefined : "or an Element" });
  // A joker goes to a villain or mob only (ruling 5); an extra card may go to an Element.
  const fields = [editorsOwn(v).length ? acting : null, play || isJoker(code) ? null : element]
    .filter(Boolean);
  // With no villain or mob on the page, the card complicates an Element: the scene itself
  // unless the Editor names one.
  const named = () => element.value.trim() || (acting.value ? null : "the scene");
  return inline(label, fields, () => run(ctx.table, play
    ? { type: "play_joker", card: code, acting: acting.value || null }
    : { type: "assign_card", card: code, acting: named() ? null : acting.value,
        element: named() }, ctx.names),
  { primary, name: `${play ? "play" : "assign"}-${code}` });
}

function next(v, ctx) {
  const who = ctx.names;
  const waits = Object.fromEntries(v.awaiting.map((a) => [a.what, a]));
  const table = ctx.table;
  if (waits.card) {
    // Keyed by how many cards are still owed: a refused card stays typed, a dealt one goes.
    // The command names whom the button names: never whoever is next when it arrives.
    const field = input(`${possessive(who[waits.card.who])} card`, {
                                  keep: `deal-${v.to_deal.length}`, placeholder: "K♣, 10H, RJ…",
                                  required: true, name: "card", autocomplete: "off" });
    return {
      prompt: `Deal ${who[waits.card.who]} a card: type it as it is dealt, or read it`,
      controls: [inline(`Deal it to ${who[waits.card.who]}`, [field],
        () => run(table, { type: "deal_card", card: field.value.trim(), to: waits.card.who,
                           source: "gm" }, who),
        { primary: true, name: "deal-card" })],
    };
  }
  if (waits.assign) {
    return {
      prompt: `Assign the Editor's ${cardText(waits.assign.card)}: its Panel is next`,
      controls: [spend(ctx, waits.assign.card, { label: `Assign ${cardText(waits.assign.card)}`,
                                                 primary: true })],
    };
  }
  if (waits.next_panel) {
    const top = v.order[0] ?? v.jokers[0];
    const label = top ? `Next Panel: ${actor(top, who)}, ${cardText(top.card)}` : "Next Panel";
    return {
      prompt: v.current ? `Now: ${actor(v.current, who)}, ${cardText(v.current.card)}`
        : `Page ${v.page} is dealt`,
      // It names the Panel it moves on from: pressed again once the table has moved on (a
      // double tap), it is refused instead of playing the one after.
      controls: [button(table, label, { type: "next_panel", from: v.current?.card ?? "start" },
                        { primary: true, name: "next", names: who })],
    };
  }
  if (waits.deal || waits.new_page_or_end) {
    const page = waits.deal ? 1 : v.page + 1;
    const ready = v.members.length > 0;
    return {
      prompt: !ready ? "Add the heroes, villains and mobs, then deal the first page"
        : waits.deal ? "Everyone is here: deal the first page"
        : `Every Panel of page ${v.page} is played`,
      controls: [
        button(table, `Deal page ${page}`, { type: "deal" },
               { primary: true, name: "deal", disabled: !ready }),
        button(table, `Deal page ${page} by hand`, { type: "deal", source: "gm" },
               { name: "deal-by-hand", disabled: !ready }),
        waits.new_page_or_end ? button(table, "End the scene", { type: "end_scene" },
                                       { name: "end" }) : null,
      ],
    };
  }
  if (v.phase === "ended") return { prompt: "The scene is over", controls: [] };
  return { prompt: "Waiting for a trade to be answered", controls: [] };
}

/** Offers involving ``id``, with the buttons that answer or withdraw them. */
function offers(v, ctx, id) {
  const who = ctx.names;
  const editorCards = v.order.filter((c) => c.holder === EDITOR || editorsOwn(v)
    .some((m) => m.id === c.holder));
  return v.offers.filter((o) => o.hero === id).map((o) => h("div", { class: "offer",
                                                                     "data-offer": o.offer },
    `Offers a trade to ${who[o.partner]} `,
    o.partner === EDITOR
      ? (() => {
          const give = select("The Editor's card",
            editorCards.map((c) => [c.card, cardText(c.card)]), { keep: `give-${o.offer}` });
          return inline("Accept", [give], () => run(ctx.table, { type: "accept_trade",
            offer: o.offer, card: give.value }, who), { name: `accept-${o.offer}` });
        })()
      : button(ctx.table, `${who[o.partner]} accepts`, { type: "accept_trade", offer: o.offer },
               { name: `accept-${o.offer}`, names: who }),
    button(ctx.table, "Decline", { type: "decline_trade", offer: o.offer },
           { name: `decline-${o.offer}`, names: who })));
}

/** Correcting a misread or mistyped card: the old one goes back to the deck. */
function correcting(ctx, id, holding) {
  return h("details", { class: "more", "data-fold": `correct-${id}` },
    h("summary", {}, "Correct…"), holding.map((c) => {
      const really = input(`${cardText(c.card)} is really`, { keep: `really-${c.card}`,
                                                              placeholder: "is really…" });
      return inline(`Correct ${cardText(c.card)}`, [really], () => run(ctx.table,
        { type: "override_card", card: c.card, to: really.value.trim() }, ctx.names),
      { name: `correct-${c.card}` });
    }));
}

function roster(v, ctx) {
  const who = ctx.names;
  const dealt = v.phase === "panels" || v.phase === "dealing";
  const current = v.current && v.phase === "panels" ? (v.current.acting ?? null) : null;
  const heroes = v.members.filter((m) => m.kind === "hero");
  // The order of play this page, kept as Panels are played so that rows do not jump about.
  const page = [...v.panels, ...v.order];
  const place = (m) => {
    const at = page.findIndex((c) => (c.acting ?? c.holder) === m.id);
    return at < 0 ? page.length : at;
  };
  const rows = [...v.members].sort((a, b) => place(a) - place(b)).map((m) => {
    const holding = v.order.filter((c) => c.holder === m.id || c.acting === m.id);
    const jokers = v.jokers.filter((c) => c.acting === m.id);
    const played = v.panels.filter((p) => p.acting === m.id);
    const trading = m.kind === "hero" && dealt && holding.length && !v.offers.some(
      (o) => o.hero === m.id);
    return {
      id: m.id, name: m.name, kind: KINDS[m.kind], phone: m.kind === "hero",
      current: current === m.id,
      facts: [...holding.map((c) => card(c.card)), ...jokers.map((c) => card(c.card)),
              ...played.map((p) => h("span", {
                class: current === m.id && p.card === v.current?.card ? "playing" : "played" },
              card(p.card)))],
      doing: v.to_deal.includes(m.id) ? "Owed a card"
        : current === m.id ? (v.current.editorial_control ? "Acting now: Editorial Control!"
                                                          : "Acting now")
        : dealt && !holding.length && !jokers.length ? (played.length ? "Done this page" : "") : "",
      actions: [
        ...jokers.map((c) => button(ctx.table, `Play ${cardText(c.card)} now`,
          { type: "play_joker", card: c.card }, { name: `joker-${c.card}`, names: who })),
        trading ? h("details", { class: "more", "data-fold": `trade-${m.id}` },
          h("summary", {}, "Trade…"),
          [...heroes.filter((o) => o.id !== m.id && v.order.some((c) => c.holder === o.id)),
           { id: EDITOR, name: "the Editor" }]
            .map((p) => button(ctx.table, `with ${p.name}`,
              { type: "offer_trade", hero: m.id, partner: p.id },
              { name: `offer-${m.id}-${p.id}`, names: who }))) : null,
        ...offers(v, ctx, m.id),
        holding.length ? correcting(ctx, m.id, holding) : null,
      ],
    };
  });
  const extra = v.order.filter((c) => c.holder === EDITOR);
  const loose = v.jokers.filter((c) => !c.acting);
  if (extra.length || loose.length) {
    rows.push({
      // Not a participant: the Editor's own cards, which only the Editor sees anyway.
      id: EDITOR, name: "The Editor", kind: "secret cards", participant: false,
      facts: [...extra, ...loose].map((c) => h("span", { class: "secret" }, card(c.card),
        c.acting || c.element ? ` for ${actor(c, who)}` : "")),
      doing: "Only you see these",
      actions: [
        ...extra.filter((c) => !c.acting && !c.element).map((c) => spend(ctx, c.card,
          { label: `Assign ${cardText(c.card)}` })),
        ...loose.map((c) => spend(ctx, c.card, { label: `Play ${cardText(c.card)} now`,
                                                 play: true })),
      ],
    });
  }
  return rows;
}

function join(ctx) {
  const kind = select("Kind", Object.entries(KINDS), { value: "hero", name: "kind" });
  return joining(ctx, [labelled("Kind", kind)],
    (name, id) => ({ type: "join", member: { id, name, kind: kind.value } }));
}

/** The last step, as Undo names it. */
function describe(e, who) {
  const name = (id) => who[id] ?? "someone";
  switch (e.type) {
    case "joined": return `${e.member.name} joining`;
    case "dealt": return `the deal of page ${e.page}`;
    case "deal_started": return `the start of page ${e.page} by hand`;
    case "card_dealt": return `${cardText(e.card)} dealt to ${name(e.to)}`;
    case "panel_played":
      return `${possessive(e.acting ? name(e.acting) : e.element ?? "the Editor")} Panel on `
        + cardText(e.card);
    case "card_assigned": return `assigning ${cardText(e.card)}`;
    case "trade_offered": return `${possessive(name(e.hero))} trade offer`;
    case "traded": return `${possessive(name(e.hero))} trade`;
    case "trade_declined": return "the declined trade";
    case "card_overridden": return `correcting ${cardText(e.card)} to ${cardText(e.to)}`;
    case "scene_ended": return "the end of the scene";
    default: return "the last step";
  }
}

export const fourColor = {
  title: "The Four Color Hack",
  empty: "No one yet: add heroes, villains and mobs below.",
  names,
  stage: (v) => (v.phase === "setup" ? "before the first page" : v.phase === "ended"
    ? "the scene is over" : `page ${v.page}`),
  next,
  roster,
  join,
  describe,
};
