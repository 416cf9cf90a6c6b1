// The turn clock (a table option, off unless the table sets ``turn_clock``): the acting
// participant's time on the console, the player page and the overlay, and a notice once the
// turn has taken longer than the table allows. It only says so: nothing is ever sent for it.
//
// The clock follows the table's state, not only its changes. Who is up is what the page's own
// view shows (the current Panel, the token, the declaration or the act being resolved), so a
// page never times a participant hidden from it; and no one is up, so no clock runs, once the
// scene is over, between rounds, or while the table waits on a roll or on the GM. A turn the
// table waited in goes on from where it stood once the same participant is up again in the
// same round. An undo puts the clock back as it stood before the step it takes back: a reveal
// taken back leaves the acting character's time as it was, and a roll taken back and rolled
// again starts the turn afresh. When the turn began comes from the role's own story (docs/api.md,
// "A table's story"), once, when the page loads mid-turn (or an undo takes back more than it
// saw); after that the page sees each turn begin itself.
//
// Time is the table's: live, the page's own clock; in a replay, the replay's, so a turn shows
// as long as it was at the table, at the replay's speed.

import { h } from "/static/shared/client.js";
import { possessive } from "/static/shared/forms.js";

/** What a table waits on while no one is up: a roll, or the GM at work (someone hidden from
 * this page, or the GM's own step). */
const WAITING = new Set(["roll_initiative", "roll", "initiative", "preemption", "gm"]);

/** Who the view shows up, by id, or null when no one is. */
export function acting(view) {
  if (view.awaiting?.some((a) => WAITING.has(a.what))) return null;
  switch (view.system) {
    // A page's last Panel stays in play while the Editor turns the page (rules/four_color/
    // view.py); once the scene is over, no one's is.
    case "four-color": return view.phase === "panels" || view.phase === "page_done"
      ? view.current?.acting ?? null : null;
    case "megatraveller-rcs": return view.phase === "round" ? view.token ?? null : null;
    default: return view.phase === "declaring"
      ? view.declaring ?? view.exchange?.act.character ?? null : null;
  }
}

/** The Panel in play, as a page shows it under "Now:"; none once the scene is over. */
export const inPlay = (view) => (view.phase === "ended" ? null : view.current);

/** The round (the page, in the Four Color Hack) a view stands in. */
const roundOf = (view) => view.page ?? view.round ?? 0;

const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

/**
 * When the turn on a page's last turn began, from its role's story (``GET /timeline``), in
 * seconds since the epoch: the start of the turn an undo went back to where the last turn
 * began with one, since the steps it took back never stood.
 */
export function turnBegan(story) {
  const { steps, turns } = story;
  let turn = turns.at(-1);
  if (!turn || turn.seconds !== null) return null;
  const stepAt = new Map(steps.map((step, n) => [step.seq, n]));
  for (;;) {
    // The undos in a row that ended with the step the turn began with: back to before the
    // earliest step they took back.
    let n = stepAt.get(turn.seq);
    let before = null;
    while (n !== undefined && n >= 0 && steps[n].kind === "undo") {
      before = Math.min(before ?? Infinity, steps[n].undoes);
      n -= 1;
    }
    const stood = before === null ? undefined : turns.findLast((t) => t.seq < before);
    if (!stood || stood.who !== turn.who || stood.round !== turn.round) return turn.at;
    turn = stood;
  }
}

export class TurnClock {
  /** ``base``: the table's API path; ``token``: the page's own. ``now``: the table's time in
   * ms (a replay's runs at its speed). ``story``: a replay's, which says when each turn began
   * (a step the role was not shown may have begun it); without it, a page loaded mid-turn
   * asks its story once. */
  constructor(base, token, { now = () => Date.now(), story = null } = {}) {
    this.base = base;
    this.token = token;
    this.now = now;
    this.story = story;
    this.asked = story !== null;
    this.turn = null; // {who, round, since, spent, running}: the participant timed, or none
    this.stood = []; // [seq, turn]: the clock as it stood at each view, for an undo
    this.undoing = null; // the earliest step an undo just took back
    this.limit = null;
    this.element = h("p", { class: "turn-clock", role: "status", "data-clock": "" });
    this.ticking = null;
  }

  /** An event the page was told of (null: one it may not see): an undo puts the clock back
   * as it stood before its step. */
  heard(event) {
    if (event?.type === "undone") this.undoing = Math.min(this.undoing ?? Infinity, event.undoes);
  }

  /** A new view, at ``seq``, standing since ``at`` (ms, the table's time; now, live): time
   * whoever it shows up, if the table keeps a turn clock. */
  see(view, name, { seq = null, at = this.now() } = {}) {
    this.limit = view.options?.turn_clock ?? null;
    const who = this.limit ? acting(view) : null;
    const round = roundOf(view);
    this.name = who ? name(who) : null;
    if (this.undoing !== null) this.putBack();
    const turn = this.turn;
    if (who === null) {
      if (turn?.running) Object.assign(turn, { spent: turn.spent + at - turn.since, running: false });
    } else if (turn && turn.who === who && turn.round === round) {
      if (!turn.running) Object.assign(turn, { since: at, running: true });
    } else {
      const told = this.story?.turns.findLast((t) => t.who === who && t.seq <= seq);
      this.turn = { who, round, since: told ? told.at * 1000 : at, spent: 0, running: true };
      if (!this.asked) this.began(who);
    }
    this.asked = true; // a turn that begins from now on, the page sees begin
    if (seq !== null) this.stood.push([seq, this.turn && { ...this.turn }]);
    this.ticking ??= setInterval(() => this.draw(), 1000);
    this.draw();
    return this.element;
  }

  /** After an undo: the clock as it stood at the last view before the earliest step taken
   * back, no one's included, so a turn that began in a step taken back is gone with it (a roll
   * taken back and rolled again starts its first turn afresh). A page that saw no view before
   * that step cannot tell how the clock stood: it asks its story again, as on load. */
  putBack() {
    const before = this.undoing;
    this.undoing = null;
    this.stood = this.stood.filter(([seq]) => seq < before);
    const last = this.stood.at(-1);
    this.turn = last?.[1] ? { ...last[1] } : null;
    if (!last) this.asked = this.story !== null;
  }

  /** A page loaded mid-turn: when that turn began, from the role's story, by this clock. */
  async began(who) {
    if (this.asked) return;
    this.asked = true;
    try {
      const answer = await fetch(`${this.base}/timeline`,
        { headers: { Authorization: `Bearer ${this.token}` } });
      if (!answer.ok) return;
      const skew = this.now() - new Date(answer.headers.get("Date") ?? Date.now()).getTime();
      const story = await answer.json();
      const began = turnBegan(story);
      const turn = this.turn;
      if (began !== null && story.turns.at(-1).who === who && turn?.who === who
          && turn.running && turn.spent === 0) {
        turn.since = began * 1000 + skew;
        this.draw();
      }
    } catch {
      // The page's own clock from load stands: a turn clock never puts an error on screen.
    }
  }

  draw() {
    const element = this.element;
    const turn = this.turn;
    if (!this.limit || !turn?.running) {
      element.replaceChildren();
      element.hidden = true;
      delete element.dataset.over;
      delete element.dataset.who;
      return;
    }
    const seconds = Math.max(0, Math.floor((turn.spent + this.now() - turn.since) / 1000));
    const over = seconds >= this.limit;
    element.hidden = false;
    element.dataset.who = turn.who;
    if (over) element.dataset.over = "";
    else delete element.dataset.over;
    element.replaceChildren(`${possessive(this.name)} turn: ${clock(seconds)}`,
      over ? ` (time is up: the table allows ${clock(this.limit)})` : ` of ${clock(this.limit)}`);
  }
}
