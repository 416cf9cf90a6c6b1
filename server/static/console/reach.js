// The console's "Turn alerts" section: the Discord channel the table posts its turns to (the
// GM sets its webhook here, and is told when Discord refuses it or is away), and for each
// character who hears of their turn beyond the table, and how: mentioned on Discord, pushed to
// how many devices. The GM sets a player's Discord link and mention here too (the player may,
// from their own page's link, through the API). Polled, as the devices are.

import { h } from "/static/shared/client.js";
import { keeping, taken } from "/static/shared/forms.js";

const send = async (table, path, body) => {
  const answer = await fetch(`${table.base}${path}`, {
    method: "PUT", body: JSON.stringify(body),
    headers: { ...table.headers(), "Content-Type": "application/json" },
  });
  return { ok: answer.ok, body: await answer.json().catch(() => ({})) };
};

/** One character's reach, in words: "Discord: mentioned · 2 devices notified". */
function reached(link, devices) {
  const discord = !link ? "not on Discord" : link.mention ? "mentioned on Discord"
    : "on Discord, not mentioned";
  return `${discord} · ${devices ? `${devices} device${devices === 1 ? "" : "s"} notified`
    : "no device notified"}`;
}

export function reach(ctx) {
  const { table } = ctx;
  const said = h("p", { class: "muted", role: "status", "data-said": "reach" });
  const url = h("input", { type: "url", name: "webhook", "aria-label": "Discord webhook URL",
                           placeholder: "https://discord.com/api/webhooks/…" });
  const status = h("p", { "data-discord": "" });
  const people = h("div", { "data-reach": "" });
  let known = { webhook: null, players: {} };
  const notes = new Map(); // a player's id → what their row's last save came to

  const saveWebhook = async (webhook) => {
    const { ok, body } = await send(table, "/discord", { webhook });
    said.textContent = ok ? (webhook ? "The table posts its turns to that channel." :
      "The table no longer posts to Discord.") : `Not saved: ${body.message}`;
    if (ok) show(body);
  };

  const person = (id, name, devices) => {
    const link = known.players[id];
    const discordId = h("input", { type: "text", inputmode: "numeric", name: `discord-${id}`,
      "data-keep": `discord-${id}`, "aria-label": `${name}'s Discord user id`,
      value: link?.discord_id ?? "", placeholder: "Discord user id" });
    // Ticked for a player not yet linked: an id is typed to have them called on their turn.
    const mention = h("input", { type: "checkbox", name: `mention-${id}`,
      checked: (link ? link.mention : true) || undefined });
    const note = h("p", { class: "muted", role: "status", "data-said": `reach-${id}` },
      notes.get(id) ?? "");
    return h("div", { class: "reach", "data-person": id },
      h("p", {}, h("strong", {}, name), ` · ${reached(link, devices)}`),
      h("form", { class: "inline", onsubmit: async (event) => {
        event.preventDefault();
        taken([discordId]);
        const { ok, body } = await send(table, `/discord/players/${encodeURIComponent(id)}`,
          { discord_id: discordId.value.trim() || null, mention: mention.checked });
        // Said on the row it concerns; the API's "null" is the page's empty box.
        notes.set(id, ok ? `${name}: ${reached(body.players[id], devices)}.`
          : `Not saved: ${body.message.replace("or null to unlink", "or leave it empty to unlink")}`);
        note.textContent = notes.get(id);
        if (ok) show(body);
      } }, discordId, h("label", { class: "setting" }, mention, " Mention on their turn"),
      h("button", { type: "submit", "data-action": `reach-${id}` }, "Save")), note);
  };

  const read = (path) => fetch(`${table.base}${path}`, { headers: table.headers() })
    .then((answer) => {
      // This link was revoked, or the table is not on this server (another database).
      if (answer.status === 401 || answer.status === 404) clearInterval(polling);
      return answer.ok ? answer.json() : null;
    }).catch(() => null);  // the server is away: the section shows what it last knew

  /** Draw the section from the server: as a poll finds it, or from the answer to a save
   * (``saved``), which is what stands now whatever was on screen before. */
  const show = async (saved = null) => {
    const [discord, push] = await Promise.all([saved ?? read("/discord"), read("/push")]);
    if (!discord) return;
    // A poll never takes the form away from a GM typing in it; a save's answer is drawn.
    if (!saved && (people.contains(document.activeElement) || document.activeElement === url)) {
      return;
    }
    known = discord;
    if (url.value === "" && discord.webhook) url.value = discord.webhook;
    status.textContent = !discord.webhook ? "Not posting to Discord."
      : discord.notice ?? `Posting to Discord: ${discord.posted} posted`
        + `${discord.queued ? `, ${discord.queued} waiting` : ""}.`;
    status.className = discord.notice ? "awaiting" : "";
    const counts = push?.subscribed ?? {};
    // An id typed and left unsaved outlives the poll, as the console's other fields do.
    keeping(people, () => people.replaceChildren(...Object.entries(ctx.names)
      .map(([id, name]) => person(id, name, counts[id] ?? 0))));
  };
  // Polled while the section is on the console: not once the console says its link is lost.
  const polling = setInterval(() => (section.isConnected ? show() : clearInterval(polling)), 5000);
  show();
  const section = h("details", { class: "devices", "data-section": "reach" },
    h("summary", {}, "Turn alerts: Discord and players' devices"),
    h("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      saveWebhook(url.value.trim() || null);
    } }, url, h("button", { type: "submit", "data-action": "save-webhook" }, "Post turns here"),
      h("button", { type: "button", "data-action": "stop-webhook",
                    onclick: () => { url.value = ""; saveWebhook(null); } }, "Stop posting")),
    status, said, people);
  return section;
}
