// What every page shares: building elements safely, and following a table live.

/** An element with attributes and children; text goes in as text, never as HTML. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
}

/** The table id at the end of the page's path (/overlay/{id}, /console/{id}, /play/{id}). */
export function tableId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
}

/** The close code of a socket whose token was revoked (policy violation): not to come back. */
const REVOKED = 1008;

/** What ``start`` throws for a GM whose table this version of the server cannot show: the
 * message says what to do (undo the last event). */

/** A fresh idempotency key: 128 random bits, in hex. ``crypto.randomUUID`` would do, but a
 * browser gives it to secure pages only (https, localhost), and a phone on the LAN reaches the
 * table as ``http://192.168.…``, where every command would fail before it is sent;
 * ``crypto.getRandomValues`` is every page's. */
function freshKey() {
  const bits = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bits, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class Unshowable extends Error {}

/** How long a command sent on the socket waits for its answer there before it is sent again
 * as a POST (and the socket, which may be dead without knowing it yet, is opened afresh). */
const ANSWER_WAIT = 5000;

/** How long the socket may stay closed before the page says it is reconnecting: a server
 * restart or a phone waking up reconnects within it, and a banner that flickers says nothing. */
const LOST_AFTER = 2000;
/** How soon a page whose table the server does not hold first asks whether it is back, and
 * how long it waits between asks at most, the wait doubling: a page left open on a server
 * that never gets the table back is not a request in its log every few seconds (ms). */
const RETURN_FIRST_ASKED = 3000;
const RETURN_ASKED_AT_MOST = 30_000;

/**
 * A table followed live: one snapshot, then the WebSocket, reconnecting with backoff and
 * resuming from the last sequence heard, until the link's token is revoked (the socket closes
 * with 1008), or a reconnection finds the server refusing it: ``onRevoked(status)`` runs then,
 * with the status the table's route refused it with (404: the table is not on this server).
 * ``onView(view, seq)`` runs on every newer view, and ``onEvent(seq, event)`` on every event as
 * this role may see it.
 *
 * Commands go on that WebSocket while it is open (docs/api.md, "Commands over the WebSocket"),
 * and as a POST while it is not. One sent on the socket and not answered there, because the
 * socket closed or stayed silent for ``ANSWER_WAIT`` ms, is sent again as a POST with the same
 * idempotency key: applied once whichever way it went in, and reported not sent only when the
 * POST cannot reach the server either.
 *
 * ``onLink(live)`` runs with false once the socket has stayed closed for ``LOST_AFTER`` ms
 * (what is on screen may be behind, and commands cannot reach the server), and with true when
 * it is open again.
 *
 * With ``guard``, every command carries If-Match: the sequence of the view on screen when it
 * was sent. A reader, a tray or another screen may move the table on between what its user saw
 * and what they pressed; the command is then refused (409) instead of being applied to a state
 * they never saw, such as a card typed for one hero dealt to the next.
 */
export class Table {
  constructor(id, token, onView, { onEvent, onRevoked, onLink, guard = false } = {}) {
    this.id = id;
    this.token = token;
    this.onView = onView;
    this.onEvent = onEvent ?? (() => {});
    this.onRevoked = onRevoked ?? (() => {});
    this.onLink = onLink ?? (() => {});
    this.down = false; // the page was told the link is down (onLink(false))
    this.telling = null; // while the socket is closed: the timer that will tell it
    this.guard = guard;
    this.seq = 0; // the last sequence the socket brought: it resumes from there
    this.shown = 0; // the sequence of the view last handed to onView
    this.seen = null; // …and of the view last painted, which a press can only have been on
    this.base = `/api/tables/${encodeURIComponent(id)}`;
    this.socket = null; // the open WebSocket, which commands go on
    this.lastId = 0; // the id of the last command sent on a socket
    this.waiting = new Map(); // id → a command sent on the socket, until its answer comes
    this.rolling = new Map(); // id → a dice request asked on the socket, until it comes to an end
  }

  async start() {
    const answer = await fetch(this.base, { headers: this.headers() });
    if (!answer.ok) throw new Error(`the table answered ${answer.status}`);
    const body = await answer.json();
    if (body.view === null) throw new Unshowable(body.fault);
    this.seq = body.seq;
    this.name = body.name;
    this.you = body.you;
    this.show(body.view, body.seq);
    this.follow();
  }

  /** The table as it is now, without waiting for the socket (which may be slow to say): its
   * view, and the events since the socket's last, which the socket repeats when it catches up. */
  async refresh() {
    const answer = await fetch(this.base, { headers: this.headers() });
    if (!answer.ok) return;
    const body = await answer.json();
    if (body.view === null) return;
    for (const { seq, event } of await this.events(this.seq)) this.onEvent(seq, event);
    this.show(body.view, body.seq);
  }

  /** Hand on a view unless a newer one was: news arriving late never takes the page back. */
  show(view, seq) {
    if (seq < this.shown) return;
    this.shown = seq;
    this.onView(view, seq);
    // What a press can have been aimed at is what was painted: a click in the frame where a
    // new view was drawn lands on controls its user has not seen yet.
    requestAnimationFrame(() => { this.seen = Math.max(this.seen ?? 0, seq); });
  }

  headers() {
    return { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" };
  }

  follow(delay = 250) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.base}/ws`
      + `?token=${encodeURIComponent(this.token)}&after=${this.seq}`);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      delay = 250;
      this.socket = socket;
      clearTimeout(this.telling);
      this.telling = null;
      if (this.down) {
        this.down = false;
        this.onLink(true);
      }
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (this.rolling.get(data.id)?.socket === socket) return this.rolled(data);
      if (data.type === "answer" || data.type === "refused") return this.answered(data);
      if (data.type === "bye") return;
      if (data.type === "event") this.onEvent(data.seq, data.event);
      this.seq = Math.max(this.seq, data.seq);
      if (data.view) this.show(data.view, data.seq);
    };
    socket.onclose = async (closed) => {
      this.socket = null;
      for (const [id, rolling] of this.rolling) { // the answer would have come on this socket
        if (rolling.socket !== socket) continue;
        this.rolling.delete(id);
        rolling.resolve({ faces: null, why: "lost" });
      }
      // What it carried and did not answer goes as a POST, under the same key.
      for (const id of [...this.waiting.keys()]) this.unanswered(id);
      if (closed.code === REVOKED) return this.onRevoked();
      // Refused before it opened: a browser cannot tell a token the server no longer knows (a
      // demo started afresh, a link revoked while this page was away) from a server that is
      // down. The table's own route can: such a page stops, saying so, instead of trying for
      // ever.
      const refusal = opened ? null : await this.refused();
      if (refusal) {
        clearTimeout(this.telling);  // no longer reconnecting: the page says why instead
        this.telling = null;
        if (this.down) {
          this.down = false;
          this.onLink(true);
        }
        if (refusal === 404) this.awaitReturn();
        return this.onRevoked(refusal);
      }
      this.telling ??= setTimeout(() => { this.down = true; this.onLink(false); }, LOST_AFTER);
      setTimeout(() => this.follow(Math.min(delay * 2, 5000)), delay);
    };
  }

  /** A table the server does not hold (404: started on another database) may come back when
   * the host starts it on the right one: asked after a few seconds, then less and less often,
   * the page opens afresh then.
   * A revoked link (401, 403) never comes back, and is not asked after. */
  awaitReturn(wait = RETURN_FIRST_ASKED) {
    setTimeout(async () => {
      const answer = await fetch(this.base, { headers: this.headers() }).catch(() => null);
      if (answer?.ok) location.reload();
      else this.awaitReturn(Math.min(wait * 2, RETURN_ASKED_AT_MOST));
    }, wait);
  }

  /** The status the server refuses this page's link with now: its token (401, 403), or the
   * table itself (404: a server started on another database); null when it does not refuse
   * it, or cannot be reached. */
  async refused() {
    const answer = await fetch(this.base, { headers: this.headers() }).catch(() => null);
    return [401, 403, 404].includes(answer?.status) ? answer.status : null;
  }

  /** Every event after ``after``, as this role may see them: [{seq, event}]. */
  async events(after = 0) {
    const answer = await fetch(`${this.base}/events?after=${after}`, { headers: this.headers() });
    if (!answer.ok) throw new Error(`the table answered ${answer.status}`);
    return (await answer.json()).events;
  }

  /** A GM's call to one of the table's routes other than commands (a hand-off, the GM's
   * devices); resolves to the answer's body, null where it has none. */
  async call(path, { method = "POST", body } = {}) {
    const headers = this.headers();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const answer = await fetch(`${this.base}/${path}`, { method, headers,
      body: body === undefined ? undefined : JSON.stringify(body) });
    const found = answer.status === 204 ? null : await answer.json();
    if (!answer.ok) throw new Error(found?.message ?? `the table answered ${answer.status}`);
    return found;
  }

  /** Send one command; resolves to {ok, status, body}, the POST's status and body however it
   * went. Rejects only when the server could not be reached. */
  send(command) {
    const sending = { command, key: freshKey(),
                      ifMatch: this.guard && this.seen !== null ? this.seen : null };
    if (this.socket === null) return this.posted(sending);
    const id = String(++this.lastId);
    return new Promise((resolve, reject) => {
      const socket = this.socket;
      const timer = setTimeout(() => { this.unanswered(id); socket.close(); }, ANSWER_WAIT);
      this.waiting.set(id, { ...sending, resolve, reject, timer });
      socket.send(JSON.stringify({ type: "command", id, command, idempotency_key: sending.key,
                                   if_match: sending.ifMatch ?? undefined }));
    });
  }

  /**
   * Ask the table's dice for a roll (docs/api.md, "Dice requests"): ``{owner, sides, count,
   * wait}``. The owner's dice blink, and their next roll comes back: resolves to ``{faces,
   * dice}``, or to ``{faces: null, why, message}`` ("offline", "lost", "refused",
   * "timed-out"); never rejects. Only on an open socket, which the answer comes on.
   */
  roll(request) {
    const socket = this.socket;
    if (!socket) return Promise.resolve({ faces: null, why: "offline" });
    const id = `dice${++this.lastId}`;
    return new Promise((resolve) => {
      this.rolling.set(id, { socket, resolve });
      socket.send(JSON.stringify({ type: "dice", id, ...request }));
    });
  }

  /** What the socket said of dice request ``id``: asked (it waits on), rolled, timed out or
   * refused. */
  rolled({ type, id, ...reply }) {
    if (type === "dice-asked") return;
    const { resolve } = this.rolling.get(id);
    this.rolling.delete(id);
    if (type === "dice-rolled") resolve({ faces: reply.faces, dice: reply.dice });
    else if (type === "refused") {
      resolve({ faces: null, why: "refused", message: reply.problem?.message ?? "" });
    } else resolve({ faces: null, why: "timed-out" });
  }

  /** The socket's reply to command ``id``, as the POST would have answered it. */
  answered({ type, id, ...reply }) {
    const sent = this.waiting.get(id);
    if (!sent) return; // already sent again as a POST, which answers it
    this.waiting.delete(id);
    clearTimeout(sent.timer);
    if (type === "answer") sent.resolve({ ok: true, status: 200, body: reply });
    else sent.resolve({ ok: false, status: reply.status, body: reply.problem });
  }

  /** Command ``id`` went on the socket and no answer came: it goes again as a POST. */
  unanswered(id) {
    const sent = this.waiting.get(id);
    this.waiting.delete(id);
    clearTimeout(sent.timer);
    this.posted(sent).then(sent.resolve, sent.reject);
  }

  /** The command as a POST. */
  async posted({ command, key, ifMatch }) {
    const headers = { ...this.headers(), "Idempotency-Key": key };
    if (ifMatch !== null) headers["If-Match"] = String(ifMatch);
    const answer = await fetch(`${this.base}/commands`, {
      method: "POST", headers, body: JSON.stringify(command),
    });
    const body = await answer.json();
    return { ok: answer.ok, status: answer.status, body };
  }
}
