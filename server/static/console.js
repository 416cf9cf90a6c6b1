// The GM console: /console starts a table; /console/{id}#token=… runs it. The GM token comes
// in the URL's fragment (never sent to a server) and is kept in this browser.

import { Table, h, tableId } from "/static/client.js";
import { report, section } from "/static/forms.js";
import { awareness } from "/static/awareness.js";
import { indexCards } from "/static/index-cards.js";
import { panels } from "/static/panels.js";

const PARTS = { "four-color": panels, "megatraveller-rcs": indexCards, awareness };
const root = document.getElementById("console");
const stored = (id) => JSON.parse(localStorage.getItem(`seize:${id}`) ?? "{}");

function startPage() {
  document.getElementById("title").textContent = "Seize: start a table";
  const system = h("select", { name: "system" },
    h("option", { value: "four-color" }, "The Four Color Hack"),
    h("option", { value: "megatraveller-rcs" }, "MegaTraveller RCS"),
    h("option", { value: "awareness" }, "Awareness one-pager"));
  const name = h("input", { name: "name", required: true, placeholder: "Friday game" });
  const admin = h("input", { name: "admin", placeholder: "only if the server asks for one" });
  const create = h("form", { "data-form": "create" },
    h("label", {}, "System", system), h("label", {}, "Table name", name),
    h("label", {}, "Admin token", admin), h("button", { class: "primary" }, "Create"));
  create.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const headers = { "Content-Type": "application/json" };
    if (admin.value) headers.Authorization = `Bearer ${admin.value}`;
    const answer = await fetch("/api/tables", { method: "POST", headers,
      body: JSON.stringify({ system: system.value, name: name.value }) });
    const body = await answer.json();
    if (!answer.ok) return report(body.message);
    localStorage.setItem(`seize:${body.id}`, JSON.stringify(body));
    location.assign(`/console/${body.id}#token=${encodeURIComponent(body.gm_token)}`);
  });
  root.replaceChildren(section("New table", create));
}

function links(table, saved) {
  const participants = h("input", { name: "participants", required: true,
                                    placeholder: "peter, sue" });
  const mint = h("form", { "data-form": "mint" }, h("strong", {}, "Player token"),
    h("label", {}, "Participant ids (comma-separated)", participants),
    h("button", { class: "primary" }, "Mint"));
  const shown = h("div", { "data-links": "" });
  mint.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const bound = participants.value.split(",").map((p) => p.trim()).filter(Boolean);
    const answer = await fetch(`${table.base}/tokens`, { method: "POST", headers: table.headers(),
      body: JSON.stringify({ participants: bound }) });
    const body = await answer.json();
    if (!answer.ok) return report(body.message);
    const url = `${location.origin}/play/${table.id}?token=${encodeURIComponent(body.token)}`;
    shown.append(h("p", {}, `${bound.join(", ")}: `, h("a", { href: url }, url)));
  });
  const overlay = saved.overlay_token
    ? h("p", {}, "Overlay (OBS browser source, 1920×1080): ",
        h("a", { href: `/overlay/${table.id}?token=${saved.overlay_token}` }, "open"))
    : h("p", { class: "muted" }, "The overlay link was shown when the table was created.");
  return section("Links", overlay, mint, shown);
}

function devices(table) {
  const list = h("div", { "data-devices": "" });
  const show = async () => {
    const answer = await fetch(`${table.base}/devices`, { headers: table.headers() });
    const found = answer.ok ? Object.entries((await answer.json()).devices) : [];
    list.replaceChildren(...(found.length ? found.map(([name, d]) => h("p", { "data-device": name },
      h("strong", {}, `${name} (${d.kind ?? "device"}): `),
      d.connected ? "connected" : "not connected",
      d.last_read ? ` · last read ${d.last_read}` : "",
      d.firmware && Object.keys(d.firmware).length ? ` · firmware ${Object.values(d.firmware).join(", ")}` : "",
      d.asking ? h("span", { class: "awaiting" }, ` · ${d.asking}`) : ""))
      : [h("p", { class: "muted" }, "No card reader or dice tray has reported. Deal by hand or "
          + "await rolls to type what the table's cards and dice show.")]));
  };
  show();
  setInterval(show, 2000);
  return section("Devices", list);
}

async function consolePage(id) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const saved = stored(id);
  const token = fragment.get("token") ?? saved.gm_token;
  if (!token) {
    root.replaceChildren(section("Token needed", h("p", {},
      "Open this console with the link shown when the table was created.")));
    return;
  }
  localStorage.setItem(`seize:${id}`, JSON.stringify({ ...saved, gm_token: token }));
  history.replaceState(null, "", location.pathname);
  let part;
  const state = h("div", { "data-state": "" });
  const table = new Table(id, token, (view, seq) => {
    part ??= PARTS[view.system](table);
    document.getElementById("title").textContent = table.name ?? "Seize";
    document.getElementById("meta").textContent = `${view.system} · ${view.phase} · seq ${seq}`;
    document.body.dataset.seq = String(seq);
    for (const control of part.forms) control.refresh(view);
    state.replaceChildren(...part.render(view));
  });
  await table.start();
  root.replaceChildren(state, section("Commands", ...part.forms.map((f) => f.element)),
                       links(table, saved), devices(table));
}

const id = location.pathname.split("/").filter(Boolean).length > 1 ? tableId() : null;
if (id) consolePage(id).catch((error) => report(String(error.message)));
else startPage();
