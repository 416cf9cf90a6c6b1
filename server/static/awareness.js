// The awareness one-pager at the GM's console: everyone's QR and Score, the order to come,
// declarations, and each exchange's reactions and order of resolution.

import { h } from "/static/client.js";
import { button, form, named, section } from "/static/forms.js";

const STATES = ["surprised", "startled", "alert", "ready", "lying_in_wait"];
const MODES = [["normal", "normal"], ["all_out_offensive", "all-out offensive"],
               ["all_out_defensive", "all-out defensive"]];

export function awareness(table) {
  const everyone = (v) => named(v.characters);
  const forms = [
    form(table, "Join", [
      { name: "id", label: "Id" }, { name: "name", label: "Name" },
      { name: "perception", label: "Perception", type: "number", value: "5" },
      { name: "stealth", label: "Stealth", type: "number", value: "5" },
      { name: "coordination", label: "Coordination", type: "number", value: "5" },
      { name: "state", label: "Awareness", type: "select", choices: () => STATES.map((s) => [s, s]) },
    ], (v) => ({ type: "join", sheet: { id: v.id, name: v.name, perception: v.perception,
      stealth: v.stealth, coordination: v.coordination, state: v.state } }), { name: "join" }),
    form(table, "Awareness and position", [
      { name: "character", label: "Character", type: "select", choices: everyone },
      { name: "state", label: "Awareness", type: "select", choices: () => STATES.map((s) => [s, s]) },
      { name: "position", label: "Position (−4…+4)", type: "number", value: "0" },
    ], (v) => ({ type: "set_awareness", character: v.character, state: v.state,
                 position: v.position }), { name: "set_awareness" }),
    form(table, "Initiative from the table", [
      { name: "character", label: "Character", type: "select",
        choices: (v) => v.awaiting.flatMap((a) => a.what === "initiative" ? a.who : [])
          .map((id) => [id, id]) },
      { name: "die", label: "d10", type: "number" },
    ], (v) => ({ type: "enter_initiative", character: v.character, die: v.die, source: "gm" }),
    { name: "enter_initiative" }),
    form(table, "Correct an initiative", [
      { name: "character", label: "Character", type: "select", choices: everyone },
      { name: "qr", label: "QR", type: "number" }, { name: "score", label: "Score", type: "number" },
    ], (v) => ({ type: "override_initiative", character: v.character, qr: v.qr, score: v.score }),
    { name: "override" }),
    form(table, "Act", [
      { name: "character", label: "Declaring", type: "select",
        choices: (v) => (v.declaring ? [[v.declaring, v.declaring]] : []) },
      { name: "what", label: "What" },
      { name: "mode", label: "Mode", type: "select", choices: () => MODES },
    ], (v) => ({ type: "act", character: v.character, what: v.what, mode: v.mode }),
    { name: "act" }),
    form(table, "Wait", [
      { name: "character", label: "Declaring", type: "select",
        choices: (v) => (v.declaring ? [[v.declaring, v.declaring]] : []) },
      { name: "trigger", label: "For" },
    ], (v) => ({ type: "wait", character: v.character, trigger: v.trigger }), { name: "wait" }),
    form(table, "React", [
      { name: "character", label: "Waiting", type: "select",
        choices: (v) => v.may_react.map((id) => [id, id]) },
      { name: "to", label: "To", type: "select",
        choices: (v) => (v.exchange ? [v.exchange.act.character,
          ...v.exchange.reactions.map((r) => r.character)].map((id) => [id, id]) : []) },
      { name: "timing", label: "Go", type: "select",
        choices: () => [["before", "just before (pre-empt)"], ["after", "just after"]] },
      { name: "what", label: "What" },
      { name: "mode", label: "Mode", type: "select", choices: () => MODES },
      { name: "die", label: "Pre-emption d10", type: "select",
        choices: () => [["engine", "the engine rolls it"], ["device", "rolled at the table"]] },
    ], (v) => ({ type: "react", character: v.character, to: v.to, timing: v.timing,
                 what: v.what, mode: v.mode, source: v.die }), { name: "react" }),
    form(table, "Pre-emption die from the table", [
      { name: "character", label: "Pre-empting", type: "select",
        choices: (v) => v.awaiting.flatMap((a) => a.what === "preemption" ? a.who : [])
          .map((id) => [id, id]) },
      { name: "die", label: "d10", type: "number" },
    ], (v) => ({ type: "enter_preemption", character: v.character, die: v.die, source: "gm" }),
    { name: "enter_preemption" }),
  ];
  const render = (v) => {
    const who = Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
    const rows = v.characters.map((c) => h("tr", { "data-id": c.id,
                                                   class: c.id === v.declaring ? "current" : "" },
      h("td", {}, c.name), h("td", {}, c.sheet ? c.sheet.state.replaceAll("_", " ") : ""),
      h("td", {}, c.initiative ? `QR ${c.initiative.qr}` : ""),
      h("td", {}, c.initiative ? `Score ${c.initiative.score}` : ""),
      h("td", {}, c.waiting ? `waits: ${c.waiting}` : c.acted ? "acted" : "")));
    const exchange = v.exchange;
    return [
      section("The round", h("p", { class: "awaiting" }, `Round ${v.round} · `,
        v.declaring ? `declaring: ${who[v.declaring]}` : v.awaiting.map((a) => a.what).join(" · ")),
        button(table, "Roll initiative", { type: "roll_initiative" }, { primary: true, name: "roll" }),
        button(table, "Await rolls from the table", { type: "roll_initiative", source: "gm" },
               { name: "await_rolls" }),
        button(table, "Undo", { type: "undo" }, { name: "undo" }),
        v.upcoming ? h("p", { class: "muted" }, "To come (secret): ",
          v.upcoming.map((id) => who[id]).join(", ")) : null),
      section("Characters", h("table", {}, rows)),
      exchange ? section("The exchange",
        h("p", {}, `${who[exchange.act.character]} acts: ${exchange.act.what}`),
        h("ul", {}, exchange.reactions.map((r) => h("li", {},
          `${who[r.character]} ${r.preempt ? "pre-empts" : "reacts to"} ${who[r.to]}: `
          + `${r.placed}${r.die ? ` (d10 ${r.die} vs ${r.target})` : ""}`)),
          exchange.pending.map((p) => h("li", { "data-pending": p.character },
            `${who[p.character]} pre-empts ${who[p.to]}: d10 awaited from the table`))),
        h("p", {}, "Resolves in order: ", (exchange.sequence ?? []).map((id) => who[id]).join(" → ")),
        exchange.next ? h("p", { class: "awaiting" }, `Next: ${who[exchange.next]}`,
          exchange.next_preempted ? " (pre-empted: could it still happen?)" : "") : null,
        button(table, "Resolve", { type: "resolve" }, { primary: true, name: "resolve" }),
        button(table, "Could not happen", { type: "resolve", performed: false },
               { name: "not_performed" })) : null,
      section("Declared this round", h("ol", {}, v.declarations.map((d) => h("li", {},
        `${who[d.character]} ${d.kind === "act" ? "acts" : "waits for"}: ${d.what}`)))),
    ];
  };
  return { forms, render };
}
