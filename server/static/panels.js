// The Four Color Hack at the Editor's console: the deal, the Panel order with every secret card,
// jokers, extra cards, trades.

import { h } from "/static/client.js";
import { button, card, form, named, section } from "/static/forms.js";

export function panels(table) {
  const others = (v) => named(v.members.filter((m) => m.kind !== "hero"));
  const secret = (v) => [...v.order.filter((c) => c.holder === "editor"), ...v.jokers]
    .map((c) => [c.card, c.card]);
  const forms = [
    form(table, "Join", [
      { name: "id", label: "Id" }, { name: "name", label: "Name" },
      { name: "kind", label: "Kind", type: "select",
        choices: () => [["hero", "hero"], ["villain", "villain"], ["mob", "mob"]] },
    ], (v) => ({ type: "join", member: { id: v.id, name: v.name, kind: v.kind } }),
    { name: "join" }),
    form(table, "Card dealt by hand", [
      { name: "card", label: "Card (QH, 10S, RJ…)" },
      { name: "to", label: "To", type: "select",
        choices: (v) => [["", "next in the deal"], ...v.to_deal.map((who) => [who, who])] },
    ], (v) => ({ type: "deal_card", card: v.card, to: v.to || null, source: "gm" }),
    { name: "deal_card" }),
    form(table, "Assign the Editor's card", [
      { name: "card", label: "Card", type: "select", choices: secret },
      { name: "acting", label: "Villain or mob", type: "select",
        choices: (v) => [["", "(an Element)"], ...others(v)] },
      { name: "element", label: "or Element", optional: true },
    ], (v) => ({ type: "assign_card", card: v.card, acting: v.acting || null,
                 element: v.acting ? null : v.element }), { name: "assign" }),
    form(table, "Correct a card", [
      { name: "card", label: "Card on the table" }, { name: "to", label: "Is really" },
    ], (v) => ({ type: "override_card", card: v.card, to: v.to }), { name: "override" }),
  ];
  const names = (v) => Object.fromEntries(v.members.map((m) => [m.id, m.name]));
  const render = (v) => {
    const who = names(v);
    const acting = (c) => who[c.acting] ?? c.element ?? (c.holder === "editor" ? "extra card" : "");
    const rows = v.order.map((c) => h("tr", { "data-card": c.card }, h("td", {}, card(c.card)),
      h("td", {}, who[c.holder] ?? "Editor"), h("td", {}, acting(c))));
    const jokers = v.jokers.map((c) => h("li", {}, card(c.card), ` ${who[c.acting] ?? "unassigned"} `,
      button(table, "Play now", { type: "play_joker", card: c.card }, { name: `joker-${c.card}` })));
    const offers = v.offers.map((o) => h("li", {}, `${who[o.hero]} offers to trade with `
      + `${o.partner === "editor" ? "the Editor" : who[o.partner]} `,
      button(table, "Decline", { type: "decline_trade", offer: o.offer })));
    return [
      section("The page", h("p", { class: "awaiting" }, v.awaiting.map((a) =>
        `${a.what.replaceAll("_", " ")}${a.who ? `: ${who[a.who] ?? a.who}` : ""}`).join(" · ")),
        h("p", {}, `Page ${v.page}`, v.to_deal.length ? ` · owed a card: ${v.to_deal.join(", ")}` : ""),
        button(table, "Deal", { type: "deal" }, { primary: true, name: "deal" }),
        button(table, "Deal by hand", { type: "deal", source: "gm" }, { name: "deal-by-hand" }),
        button(table, "Next Panel", { type: "next_panel" }, { primary: true, name: "next" }),
        button(table, "End scene", { type: "end_scene" }, { name: "end" }),
        button(table, "Undo", { type: "undo" }, { name: "undo" })),
      section("Panel order", h("table", { "data-order": "" }, rows),
        v.current ? h("p", { "data-current": v.current.card }, "Now: ", card(v.current.card), " ",
          who[v.current.acting] ?? v.current.element ?? "",
          v.current.editorial_control ? " — Editorial Control" : "") : null,
        h("ol", { class: "muted" }, v.panels.map((p) => h("li", {}, card(p.card), ` ${who[p.acting] ?? p.element ?? ""}`)))),
      section("Jokers and trades", h("ul", {}, jokers), h("ul", {}, offers)),
    ];
  };
  return { forms, render };
}
