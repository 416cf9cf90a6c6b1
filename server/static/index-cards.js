// MegaTraveller RCS at the referee's console: the line of index cards, the Taking Turn Token,
// who may seize now, the tactics pools.

import { h } from "/static/client.js";
import { button, form, named, section } from "/static/forms.js";

export function indexCards(table) {
  const everyone = (v) => named(v.characters.filter((c) => !v.out.includes(c.id)));
  const forms = [
    form(table, "Join", [
      { name: "id", label: "Id" }, { name: "name", label: "Name" }, { name: "side", label: "Side" },
      { name: "dex", label: "Dex", type: "number", value: "7" },
      { name: "movement", label: "Movement", type: "number", value: "1" },
      { name: "tactics", label: "Tactics", type: "number", value: "0" },
    ], (v) => ({ type: "join", character: { id: v.id, name: v.name, side: v.side, dex: v.dex,
                                            movement: v.movement, tactics: v.tactics } }),
    { name: "join" }),
    form(table, "Roll from the table", [
      { name: "character", label: "Character", type: "select",
        choices: (v) => v.awaiting.flatMap((a) => a.what === "roll" ? a.who : [])
          .map((id) => [id, id]) },
      { name: "a", label: "Die", type: "number" }, { name: "b", label: "Die", type: "number" },
    ], (v) => ({ type: "enter_roll", character: v.character, dice: [v.a, v.b], source: "gm" }),
    { name: "enter_roll" }),
    form(table, "Declare", [
      { name: "character", label: "Holder", type: "select",
        choices: (v) => (v.token ? [[v.token, v.token]] : []) },
      { name: "action", label: "Action", type: "select",
        choices: () => [["short", "Short"], ["long", "Long"]] },
      { name: "what", label: "What" }, { name: "target", label: "Target" },
    ], (v) => ({ type: "declare", character: v.character, action: v.action, what: v.what,
                 target: v.target }), { name: "declare" }),
    form(table, "Tactics pool", [
      { name: "side", label: "Side", type: "select",
        choices: (v) => Object.keys(v.pools).map((s) => [s, s]) },
      { name: "points", label: "Points", type: "number" },
    ], (v) => ({ type: "set_pool", side: v.side, points: v.points }), { name: "set_pool" }),
    form(table, "Spend tactics", [
      { name: "character", label: "Character", type: "select", choices: everyone },
      { name: "points", label: "± points", type: "number" },
      { name: "purpose", label: "On", type: "select",
        choices: () => [["initiative", "initiative"], ["other", "another DM"]] },
    ], (v) => ({ type: "spend_tactics", side: side(v.character), character: v.character,
                 points: v.points, purpose: v.purpose }), { name: "spend" }),
    form(table, "Correct an initiative", [
      { name: "character", label: "Character", type: "select", choices: everyone },
      { name: "initiative", label: "Initiative", type: "number" },
    ], (v) => ({ type: "override_initiative", character: v.character, initiative: v.initiative }),
    { name: "override" }),
    form(table, "Take out", [
      { name: "character", label: "Character", type: "select", choices: everyone },
    ], (v) => ({ type: "take_out", character: v.character }), { name: "take_out" }),
  ];
  let sides = {};
  const side = (id) => sides[id];
  const render = (v) => {
    sides = Object.fromEntries(v.characters.map((c) => [c.id, c.side]));
    const who = Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
    const rows = v.line.map((c) => h("tr", { class: c.token ? "current" : c.tapped ? "tapped" : "",
                                             "data-id": c.character },
      h("td", {}, who[c.character]), h("td", {}, `${c.initiative} ${"|".repeat(c.tally)}`),
      h("td", {}, c.dice.join("+")), h("td", {}, c.token ? "● token" : c.tapped ? "tapped" : ""),
      h("td", {}, c.marker ? "1 Short left" : "")));
    return [
      section("The round", h("p", { class: "awaiting" }, `Round ${v.round} · `,
        v.awaiting.map((a) => `${a.what.replaceAll("_", " ")} ${a.who.join(", ")}`).join(" · ")),
        button(table, "Roll initiative", { type: "roll_initiative" }, { primary: true, name: "roll" }),
        button(table, "Await rolls from the table", { type: "roll_initiative", source: "gm" },
               { name: "await_rolls" }),
        v.declared ? button(table, "Resolve", { type: "resolve" }, { primary: true, name: "resolve" }) : null,
        v.token && !v.declared ? button(table, "End turn", { type: "end_turn", character: v.token },
                                        { name: "end_turn" }) : null,
        button(table, "Undo", { type: "undo" }, { name: "undo" })),
      section("Index cards", h("table", { "data-line": "" }, rows),
        v.declared ? h("p", { "data-declared": "" },
          `${who[v.declared.character]} declares: ${v.declared.what} → ${v.declared.target} `
          + `(${v.declared.action})`) : null,
        h("p", {}, v.may_seize.map((id) => button(table, `${who[id]} seizes`,
          { type: "seize", character: id }, { name: `seize-${id}` })))),
      section("Tactics pools", h("p", {}, Object.entries(v.pools)
        .map(([s, points]) => `${s}: ${points}`).join(" · "))),
    ];
  };
  return { forms, render };
}
