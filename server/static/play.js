// The player page, /play/{id}?token=…: what this player's characters may know, and exactly the
// actions the engine allows them now. The view it gets is already cut to the player's role.

import { Table, h, tableId } from "/static/client.js";
import { button, card, report, section } from "/static/forms.js";

const token = new URLSearchParams(location.search).get("token") ?? "";
const root = document.getElementById("play");
let mine = new Set();

function fourColor(table, v) {
  const heroes = v.members.filter((m) => m.kind === "hero");
  const who = Object.fromEntries(v.members.map((m) => [m.id, m.name]));
  const out = [];
  for (const hero of heroes.filter((m) => mine.has(m.id))) {
    const holding = v.order.find((c) => c.holder === hero.id);
    const partners = [...heroes.filter((m) => m.id !== hero.id), { id: "editor", name: "the Editor" }];
    out.push(section(hero.name,
      h("p", { "data-hand": hero.id }, holding ? ["Your card: ", card(holding.card)] : "No card to play"),
      holding ? h("p", {}, "Offer a trade to: ", partners.map((p) => button(table, p.name,
        { type: "offer_trade", hero: hero.id, partner: p.id }, { name: `offer-${p.id}` }))) : null));
  }
  const offers = v.offers.filter((o) => mine.has(o.partner) || mine.has(o.hero));
  if (offers.length) {
    out.push(section("Trades", h("ul", {}, offers.map((o) => h("li", {},
      `${who[o.hero]} ↔ ${o.partner === "editor" ? "the Editor" : who[o.partner]} `,
      mine.has(o.partner) ? button(table, "Accept", { type: "accept_trade", offer: o.offer },
                                   { name: `accept-${o.offer}` }) : null,
      button(table, mine.has(o.partner) ? "Decline" : "Withdraw",
             { type: "decline_trade", offer: o.offer }, { name: `decline-${o.offer}` }))))));
  }
  out.push(section("Panels", v.current ? h("p", {}, "Now: ", card(v.current.card), ` ${who[v.current.acting] ?? ""}`) : null,
    h("ol", {}, v.order.map((c) => h("li", {}, card(c.card), ` ${who[c.holder] ?? ""}`)))));
  return out;
}

function rcs(table, v) {
  const who = Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
  const out = [];
  for (const entry of v.line.filter((c) => mine.has(c.character))) {
    const id = entry.character;
    const actions = [];
    if (v.may_seize.includes(id)) {
      actions.push(button(table, "Seize the initiative!", { type: "seize", character: id },
                          { primary: true, name: `seize-${id}` }));
    }
    if (v.token === id && !v.declared) {
      const what = h("input", { name: "what", placeholder: "what", required: true });
      const target = h("input", { name: "target", placeholder: "target", required: true });
      const length = h("select", { name: "action" }, h("option", { value: "short" }, "Short"),
                       h("option", { value: "long" }, "Long"));
      const declare = h("form", { "data-form": "declare" }, length, what, target,
                        h("button", { class: "primary" }, "Declare"));
      declare.addEventListener("submit", (submitted) => {
        submitted.preventDefault();
        table.send({ type: "declare", character: id, action: length.value, what: what.value,
                     target: target.value }).then(({ ok, body }) => report(ok ? "" : body.message));
      });
      actions.push(declare, button(table, "End turn", { type: "end_turn", character: id },
                                   { name: `end_turn-${id}` }));
    }
    out.push(section(who[id], h("p", {}, `Initiative ${entry.initiative} ${"|".repeat(entry.tally)}`,
      entry.token ? " · you hold the token" : "", entry.tapped ? " · tapped" : "",
      entry.marker ? " · one Short Action left" : ""), ...actions));
  }
  if (v.declared) {
    out.push(section("Declared", h("p", {},
      `${who[v.declared.character]}: ${v.declared.what} → ${v.declared.target}`)));
  }
  return out;
}

function awareness(table, v) {
  const who = Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
  const out = [];
  for (const c of v.characters.filter((x) => mine.has(x.id))) {
    const actions = [];
    if (v.declaring === c.id) {
      const what = h("input", { name: "what", placeholder: "what you do, or wait for",
                                required: true });
      const send = (type) => table.send(type === "act"
        ? { type, character: c.id, what: what.value }
        : { type, character: c.id, trigger: what.value })
        .then(({ ok, body }) => report(ok ? "" : body.message));
      actions.push(h("p", {}, what,
        h("button", { class: "primary", "data-action": "act", onclick: () => send("act") }, "Act"),
        h("button", { "data-action": "wait", onclick: () => send("wait") }, "Wait")));
    }
    if (v.may_react.includes(c.id) && v.exchange) {
      const actor = v.exchange.act.character;
      actions.push(h("p", {}, `React to ${who[actor]}: `,
        button(table, "Pre-empt", { type: "react", character: c.id, to: actor, timing: "before",
                                    what: "pre-empts" }, { primary: true, name: "preempt" }),
        button(table, "Pre-empt, rolling the tray", { type: "react", character: c.id, to: actor,
                                                      timing: "before", what: "pre-empts",
                                                      source: "device" }, { name: "preempt_tray" }),
        button(table, "Just after", { type: "react", character: c.id, to: actor,
                                      timing: "after", what: "reacts" }, { name: "after" })));
    }
    if (v.exchange?.pending.some((p) => p.character === c.id)) {
      actions.push(h("p", { class: "awaiting", "data-pending": c.id },
        "Your pre-emption waits for your d10: roll it in the tray"));
    }
    const initiative = c.initiative;
    out.push(section(c.name, initiative
      ? h("p", { "data-initiative": "" }, `QR ${initiative.qr} · Score ${initiative.score}`
          + (initiative.die ? ` · d10 ${initiative.die}` : ""))
      : h("p", { class: "muted" }, "No initiative yet"),
      c.waiting ? h("p", {}, `Waiting for: ${c.waiting}`) : null, ...actions));
  }
  out.push(section("The round", v.declaring ? h("p", {}, `Declaring: ${who[v.declaring]}`) : null,
    h("ol", {}, v.declarations.map((d) => h("li", {},
      `${who[d.character]} ${d.kind === "act" ? "acts" : "waits for"}: ${d.what}`)))));
  return out;
}

const RENDER = { "four-color": fourColor, "megatraveller-rcs": rcs, awareness };

const table = new Table(tableId(), token, (view, seq) => {
  mine = new Set(table.you?.participants ?? []);
  document.getElementById("title").textContent = table.name ?? "Seize";
  document.body.dataset.seq = String(seq);
  document.getElementById("meta").textContent = `${view.system} · ${view.phase}`;
  root.replaceChildren(...RENDER[view.system](table, view));
});
table.start().catch((error) => report(String(error.message)));
