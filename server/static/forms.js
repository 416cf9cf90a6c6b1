// Forms for the console and the player page: fields, selects whose choices follow the table,
// and sending a command with the engine's refusal shown where the user is looking.

import { h } from "/static/client.js";

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

/** A card as text: 10♥, K♠, JOKER. */
export function card(code) {
  if (!code) return h("span", { class: "card" }, "?");
  if (code.length === 2 && code.endsWith("J")) {
    return h("span", { class: "card", "data-card": code }, code === "RJ" ? "🃏 red" : "🃏 black");
  }
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D";
  return h("span", { class: `card${red ? " red" : ""}`, "data-card": code },
           code.slice(0, -1) + (SUITS[suit] ?? suit));
}

/** Where refusals are shown. */
export function report(message) {
  document.getElementById("error").textContent = message ?? "";
}

/** Send a command through ``table``; a refusal shows its rule and message. */
export async function run(table, command) {
  const { ok, body } = await table.send(command);
  if (ok) {
    report("");
    return true;
  }
  const where = body.rule ?? body.field ?? body.error;
  report(`${where}: ${body.message}`);
  return false;
}

/** A button that sends a command. */
export function button(table, label, command, { primary = false, name } = {}) {
  return h("button", { class: primary ? "primary" : undefined, "data-action": name ?? label,
                       onclick: () => run(table, command) }, label);
}

/**
 * A form. ``fields``: {name, label, type: "text"|"number"|"select", choices(view) -> [[value,
 * label]], value, optional}. ``build(values)`` makes the command from what was entered.
 * ``refresh(view)`` updates the selects' choices and keeps what was chosen where it can.
 */
export function form(table, title, fields, build, { name } = {}) {
  const inputs = {};
  const element = h("form", { "data-form": name ?? title }, h("strong", {}, title));
  for (const field of fields) {
    let input;
    if (field.type === "select") {
      input = h("select", { name: field.name });
    } else {
      input = h("input", { name: field.name, type: field.type ?? "text",
                           value: field.value ?? "", placeholder: field.placeholder,
                           required: field.optional ? undefined : true });
    }
    inputs[field.name] = input;
    element.append(h("label", {}, field.label, input));
  }
  element.append(h("button", { type: "submit", class: "primary" }, "Send"));
  element.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const values = Object.fromEntries(Object.entries(inputs).map(([key, input]) => [
      key, input.type === "number" && input.value !== "" ? Number(input.value) : input.value,
    ]));
    if (await run(table, build(values))) {
      for (const field of fields) {
        if (field.type !== "select" && field.clear !== false) inputs[field.name].value = field.value ?? "";
      }
    }
  });
  const refresh = (view) => {
    for (const field of fields) {
      if (field.type !== "select") continue;
      const select = inputs[field.name];
      const chosen = select.value;
      const choices = field.choices(view);
      select.replaceChildren(...choices.map(([value, label]) => h("option", { value }, label)));
      if (choices.some(([value]) => value === chosen)) select.value = chosen;
    }
  };
  return { element, refresh };
}

/** A section with a heading. */
export function section(title, ...children) {
  return h("section", { "data-section": title }, h("h2", {}, title), ...children);
}

/** Choices from a list of participants: [[id, name]]. */
export const named = (people) => people.map((p) => [p.id, p.name]);
