// MegaTraveller RCS at the referee's console: the index cards in the order of play, the Taking
// Turn Token, who may seize now, the tactics pools.

import { h } from "/static/shared/client.js";
import {
  NO_ONE, aimed, andThen, button, inline, input, joining, labelled, listed, possessive,
  resolving, rollInitiative, rolledBy, roundStage, run, select,
} from "/static/shared/forms.js";

const dice = (v) => `${v.options.initiative_dice}D${v.options.die_sides}`;
const names = (v) => Object.fromEntries(v.characters.map((c) => [c.id, c.name]));
/** How an initiative came about: "rolled 1 + 2, +8" (Dex, Movement, Tactics and any points
 * spent or correction since, as the difference). */
function rolled(entry) {
  const more = entry.initiative - entry.dice.reduce((sum, die) => sum + die, 0);
  return `rolled ${entry.dice.join(" + ")}, ${more < 0 ? "−" : "+"}${Math.abs(more)}`;
}

/** Ruling 3: equal initiatives are put in a random order once, recorded as tally marks. */
export const TALLY = "| tally marks: a tie of equal initiatives broken at random, once; "
  + "fewer marks act first";
const tally = (entry) => [String(entry.initiative), entry.tally ? h("span", { class: "tally",
  title: TALLY }, ` ${"|".repeat(entry.tally)}`) : null];

/** The dice of one character's initiative, typed from the table (or the tray sends them):
 * by the referee, or by the character's player on their own page. */
export function diceFor(v, ctx, id, label = `Enter ${possessive(ctx.names[id])} roll`,
                        { primary = true, name = "enter-roll" } = {}) {
  const count = v.options.initiative_dice;
  const sides = v.options.die_sides;
  const dice = Array.from({ length: count }, (_, n) => input(`Die ${n + 1}`, {
    keep: `roll-${id}-${n}`, type: "number", min: 1, max: sides, required: true,
    inputmode: "numeric", class: "die", name: `die${n + 1}`, placeholder: `d${sides}` }));
  return inline(label, dice, () => run(ctx.table, {
    type: "enter_roll", character: id, dice: dice.map((d) => Number(d.value)), source: "gm",
  }, ctx.names), { primary, name });
}

/** ``lapsed`` (character → declaration) after ``event``: RCS ruling 6's lapse (a seize, or a
 * latecomer's card passing) is kept until that character declares again or a new round is
 * rolled, so the declaration form can offer it again. The console folds its standing log with
 * it, the player page each event as it comes. */
export function lapsing(lapsed, event) {
  if (event.type === "initiative_rolled" || event.type === "rolls_awaited") lapsed.clear();
  else if (event.type === "declared" && event.declaration) {
    lapsed.delete(event.declaration.character);
  } else if (event.lapsed?.character && !event.ruled_interrupt) {  // an interrupt suspends
    lapsed.set(event.lapsed.character, event.lapsed);
  }
  return lapsed;
}

/** The holder's declaration: Long or Short, what, at whom. A holder the players see is not
 * offered a target hidden from them: its name, in the declaration they are shown, would tell
 * them of it (the shared rulings); the GM reveals it first. A hidden holder aims at anyone. */
export function declaring(v, ctx, id) {
  const entry = v.line.find((c) => c.character === id);
  const side = v.characters.find((c) => c.id === id)?.side;
  const hidden = new Set(v.hidden ?? []);
  const aimable = (c) => hidden.has(id) || !hidden.has(c.id);
  const others = v.characters.filter((c) => c.id !== id && !v.out.includes(c.id));
  const kept = others.filter((c) => !aimable(c));
  const offered = others.filter(aimable);
  const foes = [...offered.filter((c) => c.side !== side),
                ...offered.filter((c) => c.side === side)];
  // A declaration that lapsed (seized from) is offered again as it was: the GM sends it, or
  // changes it, when the token comes back (the console's own record: ctx.lapsed).
  const again = ctx.lapsed?.get(id);
  const length = select("Action", entry.short_actions_left < 2 ? [["short", "Short Action"]]
    : [["long", "Long Action"], ["short", "Short Action"]],
  { keep: `action-${id}`, value: again?.action });
  const what = input("What", { keep: `what-${id}`, placeholder: "fires, aims, reloads…",
                               name: "what", value: again?.what ?? "" });
  const target = select("At", [[NO_ONE, "no one"], ...foes.map((c) => [c.name, c.name])],
                        { keep: `target-${id}`, value: again?.target });
  const unoffered = kept.length ? h("span", { class: "muted", "data-unaimed": "" },
    `Not offered while hidden from players: ${kept.map((c) => c.name).join(", ")} `
    + "(reveal first to aim at them)") : null;
  const asBefore = again ? h("span", { class: "muted", "data-lapsed": "" },
    "As declared before it lapsed: send it, or change it") : null;
  const fields = [asBefore, length, what, target, unoffered];
  return inline(`Declare for ${ctx.names[id]}`, fields, () => run(ctx.table, {
    type: "declare", character: id, action: length.value, what: what.value.trim() || "acts",
    target: target.value,
  }, ctx.names), { primary: true, name: "declare" });
}

function next(v, ctx) {
  const who = ctx.names;
  const wait = v.awaiting[0];
  const table = ctx.table;
  switch (wait.what) {
    case "roll_initiative": return rollInitiative(v, ctx, "Every card is tapped");
    case "roll": {
      const id = wait.who[0];
      return {
        prompt: `Waiting for ${possessive(who[id])} ${dice(v)}${rolledBy(ctx, id)}`,
        controls: [diceFor(v, ctx, id), button(table, "Let the engine roll it",
          { type: "enter_roll", character: id, source: "engine" }, { name: "engine-roll",
                                                                  names: who })],
      };
    }
    case "declare": {
      const id = wait.who[0];
      const entry = v.line.find((c) => c.character === id);
      return {
        prompt: `${who[id]} holds the token: declare an action`
          + (entry?.short_actions_left === 1 ? " (one Short Action left)" : ""),
        controls: [declaring(v, ctx, id), entry?.short_actions_left === 1
          ? button(table, `End ${possessive(who[id])} turn`, { type: "end_turn", character: id },
                   { name: "end-turn", names: who }) : null],
      };
    }
    default: {
      const d = v.declared;
      const seizers = wait.what === "seize_or_resolve" ? wait.who.map((id) => who[id]) : [];
      return {
        prompt: andThen(`${who[d.character]} declares: ${d.what}${aimed(d)}`,
          seizers.length ? `${listed(seizers)} may seize the initiative first` : ""),
        // Whose declaration it resolves: never the next one's, should it come first.
        controls: [resolving(table, `Resolve: ${who[d.character]} ${d.what}${aimed(d)}`,
                             d.character, who)],
      };
    }
  }
}

/**
 * Ruling 5's exception: between a holder's Short Actions only the referee's ruled interrupt (an
 * attack of opportunity) lets a higher untapped card seize, and it says why.
 */
function interrupting(v, ctx, entry) {
  const holder = v.line.find((c) => c.token);
  const higher = entry && holder && !entry.tapped && !entry.token
    && (entry.initiative > holder.initiative
        || (entry.initiative === holder.initiative && entry.tally > holder.tally));
  if (!higher || v.may_seize.includes(entry.character)) return null;
  const id = entry.character;
  const reason = input("Why", { keep: `reason-${id}`, value: "attack of opportunity",
                                name: "reason" });
  return inline(`${ctx.names[id]} interrupts`, [reason], () => run(ctx.table, { type: "seize",
    character: id, ruled_interrupt: true, reason: reason.value.trim() }, ctx.names),
  { name: `interrupt-${id}` });
}

function roster(v, ctx) {
  const who = ctx.names;
  const table = ctx.table;
  const rolling = v.awaiting.find((a) => a.what === "roll")?.who ?? [];
  const inLine = v.line.map((c) => c.character);
  const rest = v.characters.map((c) => c.id).filter((id) => !inLine.includes(id));
  return [...inLine, ...rest].map((id) => {
    const character = v.characters.find((c) => c.id === id);
    const entry = v.line.find((c) => c.character === id);
    const out = v.out.includes(id);
    const pool = v.pools[character.side] ?? 0;
    const movable = entry && !entry.tapped && !out && v.phase === "round" && pool > 0;
    const spend = (points, label) => button(table, label, { type: "spend_tactics",
      side: character.side, character: id, points, purpose: "initiative", note: "" },
      { name: `tactics-${id}-${points > 0 ? "up" : "down"}`, names: who });
    const correct = input("Initiative", { keep: `override-${id}`, type: "number",
                                          class: "die", name: "initiative" });
    return {
      id, name: character.name, kind: character.side, phone: !out, out,
      current: Boolean(entry?.token),
      facts: [...(entry && !rolling.includes(id) ? [h("span", { class: "big" }, tally(entry)),
        h("span", { class: "muted" }, ` ${rolled(entry)}`)] : []),
      // What the initiative adds to the 2D6, as the GM gave it at Add (ruling 1): a line of
      // its own, not run on from the roll's sum.
      h("div", { class: "muted", "data-ratings": "" }, `Dex ${character.dex} · Movement `
        + `${character.movement}${character.tactics ? ` · Tactics ${character.tactics}` : ""}`)],
      doing: out ? "Out of the fight" : rolling.includes(id) ? "Rolling initiative"
        : v.phase === "rolling" && !entry ? "Roll in: the cards are laid once every roll is"
        : entry?.token ? (v.declared ? `Declares: ${v.declared.what}${aimed(v.declared)}`
                                     : "Holds the token")
        : entry?.tapped ? "Tapped" : entry?.marker ? "One Short Action left" : "",
      actions: [
        // The step asks for the first roll awaited; the others may be typed on their rows
        // meanwhile, in any order (ruling 1), while a player still looks for their dice.
        rolling.includes(id) && id !== rolling[0] ? diceFor(v, ctx, id, "Enter roll",
          { primary: false, name: `enter-roll-${id}` }) : null,
        v.may_seize.includes(id) ? button(table, "Seize the initiative!",
          { type: "seize", character: id }, { name: `seize-${id}`, names: who }) : null,
        movable ? spend(-1, "Tactics −1 (sooner)") : null,
        movable ? spend(1, "Tactics +1 (later)") : null,
        out ? null : h("details", { class: "more", "data-fold": `more-${id}` },
          h("summary", {}, "More…"),
          interrupting(v, ctx, entry),
          entry && v.phase !== "round_over" ? inline("Correct initiative", [correct],
            () => run(table, { type: "override_initiative", character: id,
                               initiative: Number(correct.value) }, who),
            { name: `override-${id}` }) : null,
          button(table, `Take ${character.name} out`, { type: "take_out", character: id },
                 { name: `take-out-${id}`, names: who })),
      ],
    };
  });
}

/** The tactics pools, one per side, and setting them; what tally marks mean, while any show. */
function aside(v, ctx) {
  const legend = v.line.some((entry) => entry.tally)
    ? h("p", { class: "muted", "data-legend": "tally" }, TALLY) : null;
  const sides = Object.entries(v.pools);
  if (!sides.length) return legend ? [legend] : [];
  const pools = h("ul", { class: "pools" }, sides.map(([side, points]) => {
    const field = input(`Points for ${side}`, { keep: `pool-${side}`, type: "number", min: 0,
                                                 class: "die", value: String(points) });
    return h("li", { "data-pool": side }, h("strong", {}, side),
      ` ${points} point${points === 1 ? "" : "s"} `,
      inline("Set", [field], () => run(ctx.table, { type: "set_pool", side,
        points: Number(field.value) }, ctx.names), { name: `pool-${side}` }));
  }));
  return [legend, h("h3", {}, "Tactics pools"), pools].filter(Boolean);
}

function join(ctx) {
  const sides = [...new Set(ctx.view?.characters.map((c) => c.side) ?? [])];
  const side = input("Side", { value: sides[0] ?? "crew", name: "side", required: true });
  const number = (label, value) => input(label, { type: "number", value, class: "die",
                                                  name: label.toLowerCase(), required: true });
  const dex = number("Dex", "7");
  const movement = number("Movement", "1");
  const tactics = number("Tactics", "0");
  return joining(ctx, [labelled("Side", side), labelled("Dex", dex),
                       labelled("Movement", movement), labelled("Tactics", tactics)],
  (name, id) => ({ type: "join", character: { id, name, side: side.value.trim(),
    dex: Number(dex.value), movement: Number(movement.value), tactics: Number(tactics.value) } }),
  { stays: [side] });
}

function describe(e, who) {
  const name = (id) => who[id] ?? "someone";
  switch (e.type) {
    case "joined": return `${e.character.name} joining`;
    case "pool_set": return `setting the ${e.side} pool to ${e.points}`;
    case "tactics_spent": return `${possessive(name(e.character))} tactics point`;
    case "initiative_rolled": return `the initiative roll of round ${e.round}`;
    case "rolls_awaited": return `rolling round ${e.round} at the table`;
    case "roll_entered":
      return `${possessive(name(e.roll.character))} roll of ${e.roll.dice.join(" + ")}`;
    case "declared": return `${possessive(name(e.declaration.character))} declaration`;
    case "resolved":
      // What was declared is the player's own words ("fires his rifle"): in brackets.
      return `resolving ${possessive(name(e.declaration.character))} action `
        + `(${e.declaration.what})`;
    case "seized": return `${name(e.character)} seizing the initiative`;
    case "turn_ended": return `the end of ${possessive(name(e.character))} turn`;
    case "taken_out": return `taking ${name(e.character)} out`;
    case "initiative_overridden": return `${possessive(name(e.character))} corrected initiative`;
    default: return "the last step";
  }
}

export const rcs = {
  title: "MegaTraveller RCS",
  empty: "No one yet: add the characters below.",
  names,
  stage: roundStage,
  next,
  roster,
  aside,
  join,
  describe,
};
