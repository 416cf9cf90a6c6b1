// The turn clock (a table option, off unless the table sets ``turn_clock``): the acting
// participant's time on the console, the player page and the overlay, and a notice once the
// turn has taken longer than the table allows. It only says so: nothing is ever sent for it.
//
// Who is acting is what the page's own view shows (the current Panel, the token, the
// declaration or the act being resolved), so a page never times a participant hidden from it.
// When the turn began comes from the role's own story (docs/api.md, "A table's story"), once,
// when the page loads mid-turn; after that the page sees each turn begin itself.

import { h } from "/static/shared/client.js";

/** Who the view shows acting, by id, or null. */
export function acting(view) {
  switch (view.system) {
    case "four-color": return view.current?.acting ?? null;
    case "megatraveller-rcs": return view.token ?? null;
    // While the table waits on the GM (someone hidden from this page is at work), no one is.
    default: return view.awaiting?.some((a) => a.what === "gm") ? null
      : view.declaring ?? view.exchange?.act.character ?? null;
  }
}

const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

export class TurnClock {
  /** ``base``: the table's API path; ``token``: the page's own. */
  constructor(base, token) {
    this.base = base;
    this.token = token;
    this.who = undefined; // the participant timed, once a view has been seen
    this.since = 0; // when their turn began, by this page's clock (ms)
    this.limit = null;
    this.element = h("p", { class: "turn-clock", role: "status", "data-clock": "" });
    this.asked = false;
    this.ticking = null;
  }

  /** A new view: start timing whoever it shows acting, if the table keeps a turn clock. */
  see(view, name) {
    this.limit = view.options?.turn_clock ?? null;
    const who = this.limit ? acting(view) : null;
    this.name = who ? name(who) : null;
    if (who !== this.who) {
      const first = this.who === undefined;
      this.who = who;
      this.since = Date.now();
      if (first && who) this.began(who);
    }
    this.ticking ??= setInterval(() => this.draw(), 1000);
    this.draw();
    return this.element;
  }

  /** A page loaded mid-turn: when that turn began, from the role's story, by this clock. */
  async began(who) {
    if (this.asked) return;
    this.asked = true;
    try {
      const answer = await fetch(`${this.base}/timeline`,
        { headers: { Authorization: `Bearer ${this.token}` } });
      if (!answer.ok) return;
      const skew = Date.now() - new Date(answer.headers.get("Date") ?? Date.now()).getTime();
      const last = (await answer.json()).turns.at(-1);
      if (last && last.who === who && last.seconds === null && this.who === who) {
        this.since = last.at * 1000 + skew;
        this.draw();
      }
    } catch {
      // The page's own clock from load stands: a turn clock never puts an error on screen.
    }
  }

  draw() {
    const element = this.element;
    if (!this.limit || !this.who) {
      element.replaceChildren();
      element.hidden = true;
      delete element.dataset.over;
      return;
    }
    const seconds = Math.max(0, Math.floor((Date.now() - this.since) / 1000));
    const over = seconds >= this.limit;
    element.hidden = false;
    element.dataset.who = this.who;
    if (over) element.dataset.over = "";
    else delete element.dataset.over;
    element.replaceChildren(`${this.name}'s turn: ${clock(seconds)}`,
      over ? ` (time is up: the table allows ${clock(this.limit)})` : ` of ${clock(this.limit)}`);
  }
}
