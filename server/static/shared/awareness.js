// The awareness one-pager at the GM's console: everyone's QR and Score, who declares now, act or
// wait, reactions and pre-emptions on the rows of those who wait, and each exchange resolved in
// its order.

import { h } from "/static/shared/client.js";
import {
  andThen, button, inline, input, joining, labelled, listed, possessive, resolving, rollInitiative,
  rolledBy, roundStage, run, select,
} from "/static/shared/forms.js";

const STATES = [["surprised", "Surprised"], ["startled", "Startled"], ["alert", "Alert"],
                ["ready", "Ready"], ["lying_in_wait", "Lying in wait"]];
const STATE = Object.fromEntries(STATES);
const MODES = [["normal", "normal"], ["all_out_offensive", "all-out offensive"],
               ["all_out_defensive", "all-out defensive"]];

const positionText = (sheet) => (sheet.position
  ? `, position ${sheet.position > 0 ? "+" : ""}${sheet.position}` : "");
const names = (v) => Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
export const panics = (v, c) => c?.initiative && c.initiative.qr >= v.options.panic_from
  && c.initiative.qr <= v.options.panic_to;

/** A d10 typed from the table for ``command``; the tray may send it instead. ``action``
 * names the button where several show at once (a row's); what is typed is kept by ``name``. */
export function d10(ctx, id, label, command, name, { primary = true, action = name } = {}) {
  const die = input("d10", { keep: `${name}-${id}`, type: "number", min: 1, placeholder: "d10",
                             max: ctx.view.options.die_sides, required: true,
                             inputmode: "numeric", class: "die", name: "die" });
  return inline(label, [die], () => run(ctx.table, { ...command, die: Number(die.value),
                                                     source: "gm" }, ctx.names),
                { primary, name: action });
}

/** What players and overlays are shown whenever the table waits on the GM for a step they are
 * not told of: a new round to start, or the declaration of someone hidden from them, which so
 * reads as any other moment the GM is busy (the shared rulings, "No tells"). */
export const GM_BUSY = "Waiting on the GM…";

export function gmBusy(v) {
  return v.awaiting.some((a) => a.what === "gm");
}

/** A declaration in words: what an act does, said aloud; a wait, with its trigger only for
 * those who may know it (ruling 12: the view leaves it out for the others). */
export function declaration(d, name) {
  if (d.kind === "act") return `${name} acts: ${d.what}`;
  return d.what ? `${name} waits${forWhat(d.what)}` : `${name} waits`;
}

/** A wait's trigger after "waits": " for: the Marshal draws", but " until someone moves" when
 * the trigger's own words already say how long ("until", "till", "for", "while", "as long as"). */
export function forWhat(trigger) {
  return /^(until|till|for|while|as long as)\b/i.test(trigger) ? ` ${trigger}` : ` for: ${trigger}`;
}

/** What the next one in the exchange does: the act ("action (draws)"), or a reaction to
 * someone, said with whom it answers ("pre-emption of Black Bart"). */
function deed(exchange, id, who) {
  // The act's words are a verb ("draws"): said as the action they name, as RCS says it.
  if (exchange.act.character === id) return `action (${exchange.act.what})`;
  const r = exchange.reactions.find((x) => x.character === id);
  if (!r) return "action";
  return `${r.what} ${r.preempt ? "of" : "to"} ${who[r.to]}`;
}

/** What came of one resolved in an exchange: "Sniper pre-empted Marshal: acted first". */
export function happened(x, done, who) {
  const id = done.character;
  const r = x.reactions.find((reaction) => reaction.character === id);
  const did = !done.performed ? "could not act" : r?.placed === "before" ? "acted first"
    : r ? "went just after" : "acted";
  if (!r) return `${who[id]}: ${did}`;
  const how = !r.preempt ? "reacted to"
    : r.placed === "before" ? "pre-empted" : "tried to pre-empt";
  return `${who[id]} ${how} ${who[r.to]}: ${did}`;
}

/** The order an exchange resolves in, those already resolved struck through, each saying what
 * came of it: shown with the step, where the GM is looking, once someone has reacted. */
function sequence(x, who) {
  if (!x.sequence || !x.reactions.length) return null;
  const done = new Map(x.resolved.map((r) => [r.character, happened(x, r, who)]));
  return h("p", { class: "sequence", "data-sequence": "" }, "Resolves in order: ",
    x.sequence.map((id, n) => [n ? " → " : "", done.has(id)
      ? h("s", { "aria-label": done.get(id), title: done.get(id) }, who[id]) : who[id]]).flat());
}

/** A pre-emption's d10 in words (ruling 10). The target, Coordination + (the actor's QR − the
 * pre-emptor's), is the GM's only; a 1 always succeeds and the die's highest face always fails. */
function rolled(v, r) {
  const natural = r.die === 1 ? ": a 1 always succeeds"
    : r.die === v.options.die_sides ? `: a ${r.die} always fails` : "";
  return `rolled ${r.die} on the d10` + (r.target === null || r.target === undefined ? ""
    : `, needed ${r.target} or less (Coordination + QR difference)`) + natural;
}

export function declare(v, ctx, id) {
  const c = v.characters.find((x) => x.id === id);
  const panic = panics(v, c);
  const what = input("What", { keep: `what-${id}`, name: "what",
    placeholder: panic ? "what, all-out" : "what, or the trigger to wait for" });
  const mode = select("Mode", panic ? MODES.slice(1) : MODES, { keep: `mode-${id}` });
  const text = (fallback) => what.value.trim() || fallback;
  const form = inline(`${c.name} acts`, [what, mode], () => run(ctx.table, { type: "act",
    character: id, what: text("acts"), mode: mode.value }, ctx.names),
  { primary: true, name: "act" });
  if (!panic) {
    form.append(button(ctx.table, `${c.name} waits`, () => ({ type: "wait", character: id,
      trigger: text("something happens") }), { name: "wait", names: ctx.names }));
  }
  return form;
}

function next(v, ctx) {
  const who = ctx.names;
  const table = ctx.table;
  const waits = Object.fromEntries(v.awaiting.map((a) => [a.what, a]));
  if (waits.roll_initiative) return rollInitiative(v, ctx, "No one is left to declare");
  if (waits.initiative) {
    const id = waits.initiative.who[0];
    return {
      prompt: `Waiting for ${possessive(who[id])} d10${rolledBy(ctx, id)}`,
      controls: [d10(ctx, id, `Enter ${possessive(who[id])} d10`,
        { type: "enter_initiative", character: id }, "enter-initiative"),
      button(table, "Let the engine roll it",
             { type: "enter_initiative", character: id, source: "engine" },
             { name: "engine-roll", names: who })],
    };
  }
  if (waits.preemption) {
    const id = waits.preemption.who[0];
    const pending = v.exchange.pending.find((p) => p.character === id);
    return {
      prompt: `Waiting for ${possessive(who[id])} d10 to pre-empt ${who[pending.to]}`
        + rolledBy(ctx, id),
      controls: [d10(ctx, id, `Enter ${possessive(who[id])} d10`,
        { type: "enter_preemption", character: id }, "enter-preemption"),
      button(table, "Let the engine roll it",
             { type: "enter_preemption", character: id, source: "engine" },
             { name: "engine-preemption", names: who })],
    };
  }
  if (waits.react_or_resolve && v.exchange?.next) {
    const x = v.exchange;
    const id = x.next;
    const reactors = v.may_react.map((r) => who[r]);
    const may = reactors.length ? `${listed(reactors)} may react first` : "";
    if (x.next_preempted) {
      const happens = resolving(table, `It happens: resolve ${possessive(who[id])} `
        + deed(x, id, who), id, who);
      // What the GM typed of what happened goes in either way ("the gun goes flying").
      const said = () => happens.querySelector("input[name=outcome]").value.trim();
      return {
        prompt: `${who[id]} was pre-empted: could ${possessive(who[id])} ${deed(x, id, who)} `
          + "still happen?",
        controls: [
          sequence(x, who),
          happens,
          button(table, "It could not happen", () => ({ type: "resolve", from: id,
            performed: false, ...(said() ? { outcome: said() } : {}) }),
          { name: "not-performed", names: who })],
      };
    }
    return {
      prompt: andThen(`${who[x.act.character]} acts: ${x.act.what}`, may),
      controls: [sequence(x, who),
        // Whose action it resolves: never the next one's, should the first press have gone in.
        resolving(table, `Resolve ${possessive(who[id])} ${deed(x, id, who)}`, id, who)],
    };
  }
  const id = v.declaring;
  if (!id) return { prompt: "No one is left to declare", controls: [] };
  const c = v.characters.find((x) => x.id === id);
  return {
    // Panicked, a character may not wait (ruling 6): the prompt offers what the form does.
    prompt: panics(v, c) ? `${c.name} declares: act all-out (QR ${c.initiative.qr}: panic)`
      : `${c.name} declares: act or wait`,
    controls: [declare(v, ctx, id)],
  };
}

/** Everyone ``id`` may react to now, with what they do, the latest first (what just happened is
 * what a waiter most often answers): each reaction whose place is known, then the one acting
 * (ruling 11: a pre-emption may itself be pre-empted, to any depth). */
export function reactable(x, id, who) {
  return [...x.reactions.map((r) => ({ to: r.character,
    doing: `${r.preempt ? "pre-empts" : "goes just after"} ${who[r.to]}` })).reverse(),
  { to: x.act.character, doing: `acts: ${x.act.what}` }].filter(({ to }) => to !== id);
}

/** A waiting character's reactions, one line for each one they may react to: pre-empt them
 * (the engine rolls, or with the d10 typed beside the button, or the tray rolls) or go just
 * after them. The line to the one acting names its controls after the waiter alone; a line to a
 * reaction adds whom it answers. */
export function reactions(v, ctx, id) {
  const x = v.exchange;
  const who = ctx.names;
  const targets = reactable(x, id, who);
  // Still waiting from last round, but panicked in this one's roll (ruling 6): all-out only.
  const c = v.characters.find((x) => x.id === id);
  const panicked = panics(v, c) && `Panicked (QR ${c.initiative.qr}): reacts all-out`;
  const mode = panicked ? select(panicked, MODES.slice(1), { keep: `react-mode-${id}` }) : null;
  const sent = ctx.rollers?.dice.has(id) ? "their own dice roll"
    : !ctx.rollers || ctx.rollers.tray ? "the tray rolls" : null;
  const lines = targets.map(({ to, doing }) => {
    const suffix = to === x.act.character ? "" : `-${to}`;
    const base = () => {
      if (mode) mode.dataset.sent = mode.value;  // it went in with the reaction: not lost
      return { type: "react", character: id, to, what: "reaction",
               ...(mode ? { mode: mode.value } : {}) };
    };
    const before = () => ({ ...base(), timing: "before", what: "pre-emption" });
    const die = input("d10 rolled at the table (empty: the engine rolls)", {
      keep: `react-die-${id}${suffix}`, type: "number", min: 1, placeholder: "d10",
      max: v.options.die_sides, inputmode: "numeric", class: "die", name: "die" });
    const preempt = inline(`Pre-empt ${who[to]}: the engine rolls`, [die],
      () => run(ctx.table, die.value
        ? { ...before(), die: Number(die.value), source: "gm" } : before(), who),
    { name: `preempt-${id}${suffix}` });
    // The button says which die it sends: the one typed, or the engine's (a player who
    // pressed it empty was told of a d10 nobody at the table had rolled).
    const said = () => {
      preempt.querySelector("button").textContent = die.value
        ? `Pre-empt ${who[to]} with a ${die.value}` : `Pre-empt ${who[to]}: the engine rolls`;
    };
    die.addEventListener("input", said);
    queueMicrotask(said);  // a d10 kept from before the redraw is put back after this returns
    return h("div", { class: "react", "data-to": to },
      targets.length > 1 ? h("p", { class: "to" }, `${who[to]} ${doing}`) : null,
      preempt,
      // Offered where a device may send the d10: not where the server said there is no tray
      // and no die of the reactor's (offered until it has said).
      sent ? button(ctx.table, `Pre-empt ${who[to]}: ${sent}`,
                    () => ({ ...before(), source: "device" }),
                    { name: `preempt-tray-${id}${suffix}`, names: who }) : null,
      button(ctx.table, `Just after ${who[to]}`, () => ({ ...base(), timing: "after" }),
             { name: `after-${id}${suffix}`, names: who }));
  });
  return mode ? [h("div", { class: "react" }, labelled(panicked, mode)), ...lines] : lines;
}

/** Awareness state and position, set between rounds. */
function setting(v, ctx, c) {
  const state = select("Awareness", STATES, { keep: `state-${c.id}`, value: c.sheet.state });
  const position = input("Position", { keep: `position-${c.id}`, type: "number", min: -4, max: 4,
                                       value: String(c.sheet.position), class: "die" });
  return h("details", { class: "more", "data-fold": `awareness-${c.id}` },
    h("summary", {}, "Awareness…"),
    inline("Set", [labelled("Awareness", state), labelled("Position", position)],
      () => run(ctx.table, { type: "set_awareness", character: c.id, state: state.value,
                             position: Number(position.value) }, ctx.names),
      { name: `set-${c.id}` }));
}

/** Correcting a QR and Score this round. */
function correcting(ctx, c) {
  const number = (label, value) => input(label, { keep: `${label}-${c.id}`, type: "number",
                                                  class: "die", value: String(value) });
  const qr = number("QR", c.initiative.qr);
  const score = number("Score", c.initiative.score);
  return h("details", { class: "more", "data-fold": `correct-${c.id}` },
    h("summary", {}, "Correct…"),
    inline(`Correct ${possessive(c.name)} initiative`, [labelled("QR", qr),
                                                        labelled("Score", score)],
    () => run(ctx.table, { type: "override_initiative", character: c.id, qr: Number(qr.value),
                           score: Number(score.value) }, ctx.names), { name: `correct-${c.id}` }));
}

function doing(v, c, who) {
  const x = v.exchange;
  const pending = x?.pending.find((p) => p.character === c.id);
  const reaction = x?.reactions.find((r) => r.character === c.id);
  if (v.awaiting.some((a) => a.what === "initiative" && a.who.includes(c.id))) {
    return "Rolling initiative";
  }
  if (pending) return `Pre-empts ${who[pending.to]}: d10 awaited`;
  if (reaction) {
    const how = !reaction.preempt ? "Reacts to"
      : reaction.placed === "after" ? "Tried to pre-empt" : "Pre-empts";
    return `${how} ${who[reaction.to]}: goes just ${reaction.placed}`
      + `${reaction.die ? `; ${rolled(v, reaction)}` : ""}`;
  }
  if (x?.act.character === c.id) return `Acts: ${x.act.what}`;
  if (v.declaring === c.id) return "Declaring now";
  if (c.waits) return c.waiting ? `Waits${forWhat(c.waiting)}` : "Waits";
  if (c.acted) return "Has acted";
  return sitsOut(v, c) ?? "";
}

/** Why a character makes no declaration this round, if that is so: frozen by their QR, or
 * surprised in round one (rulings 6 and 9); else null. Said where the others' doings show. */
export function sitsOut(v, c) {
  if (v.phase !== "declaring" || c.acted || c.waits) return null;
  if (c.initiative && c.initiative.qr >= v.options.freeze_at) {
    return `Froze (QR ${c.initiative.qr}): no declaration this round`;
  }
  if (v.round === 1 && c.sheet?.state === "surprised") return "Surprised: no declaration in round 1";
  return null;
}

function roster(v, ctx) {
  const who = ctx.names;
  const between = v.phase === "setup" || v.phase === "round_over";
  const byQr = (a, b) => (a.initiative && b.initiative
    ? a.initiative.qr - b.initiative.qr || b.initiative.score - a.initiative.score : 0);
  const busy = v.exchange ? v.exchange.next ?? v.exchange.act.character : v.declaring;
  const rolling = v.awaiting.find((a) => a.what === "initiative")?.who ?? [];
  return [...v.characters].sort(byQr).map((c) => ({
    id: c.id, name: c.name, kind: c.side || null, phone: true,
    current: busy === c.id,
    facts: [c.initiative ? h("span", { class: "big" }, `QR ${c.initiative.qr}`) : null,
            c.initiative ? ` Score ${c.initiative.score}` : null,
            c.sheet
              ? h("span", { class: "muted" }, ` ${STATE[c.sheet.state]}${positionText(c.sheet)}`)
              : null],
    doing: doing(v, c, who),
    actions: [
      // The step asks for the first d10 awaited; the others may be typed on their rows
      // meanwhile, in any order, while a player still looks for their die.
      rolling.includes(c.id) && c.id !== rolling[0] ? d10(ctx, c.id, "Enter d10",
        { type: "enter_initiative", character: c.id }, "enter-initiative",
        { primary: false, action: `enter-initiative-${c.id}` }) : null,
      v.exchange && v.may_react.includes(c.id) ? reactions(v, ctx, c.id) : null,
      between && c.sheet ? setting(v, ctx, c) : null,
      c.initiative && !between ? correcting(ctx, c) : null,
    ],
  }));
}

function aside(v, ctx) {
  const who = ctx.names;
  return [
    v.upcoming?.length ? h("p", { class: "muted" }, "Still to declare (only you see this): ",
      v.upcoming.map((id) => who[id]).join(", ")) : null,
    v.declarations.length ? h("ol", { class: "declared" }, v.declarations.map((d) => h("li", {},
      declaration(d, who[d.character])))) : null,
  ].filter(Boolean);
}

function join(ctx) {
  const number = (label) => input(label, { type: "number", value: "5", class: "die",
                                           name: label.toLowerCase(), required: true });
  const perception = number("Perception");
  const stealth = number("Stealth");
  const coordination = number("Coordination");
  const state = select("Awareness", STATES, { value: "alert", name: "state" });
  return joining(ctx, [labelled("Perception", perception), labelled("Stealth", stealth),
                       labelled("Coordination", coordination), labelled("Awareness", state)],
  (name, id) => ({ type: "join", sheet: { id, name, perception: Number(perception.value),
    stealth: Number(stealth.value), coordination: Number(coordination.value),
    state: state.value } }));
}

function describe(e, who) {
  const name = (id) => who[id] ?? "someone";
  switch (e.type) {
    case "joined": return `${e.sheet.name} joining`;
    case "awareness_set": return `${possessive(name(e.character))} awareness and position`;
    case "initiative_rolled": return `the initiative roll of round ${e.round}`;
    case "rolls_awaited": return `rolling round ${e.round} at the table`;
    case "initiative_entered": return `${possessive(name(e.result.character))} initiative`;
    case "declared": return `${possessive(name(e.character))} ${e.kind === "act" ? "act" : "wait"}`;
    case "preemption_awaited": return `${possessive(name(e.character))} pre-emption`;
    case "reacted":
      return `${possessive(name(e.character))} ${e.preempt ? "pre-emption" : "reaction"}`;
    case "resolved": return `resolving ${possessive(name(e.character))} action`;
    case "initiative_overridden":
      return `${possessive(name(e.result.character))} corrected initiative`;
    default: return "the last step";
  }
}

export const awareness = {
  title: "Awareness one-pager",
  empty: "No one yet: add the characters below.",
  names,
  stage: roundStage,
  next,
  roster,
  aside,
  join,
  describe,
};
