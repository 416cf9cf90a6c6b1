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
export class Unshowable extends Error {}

/**
 * A table followed live: one snapshot, then the WebSocket, reconnecting with backoff and
 * resuming from the last sequence seen. ``onView(view, seq)`` runs on every new view,
 * ``onEvent(seq, event)`` on every event as this role may see it, and ``onRevoked()`` once
 * the link's token is revoked (the socket closes with 1008): the page stops following then.
 */
export class Table {
  constructor(id, token, onView, { onEvent, onRevoked } = {}) {
    this.id = id;
    this.token = token;
    this.onView = onView;
    this.onEvent = onEvent ?? (() => {});
    this.onRevoked = onRevoked ?? (() => {});
    this.seq = 0;
    this.base = `/api/tables/${encodeURIComponent(id)}`;
  }

  async start() {
    const answer = await fetch(this.base, { headers: this.headers() });
    if (!answer.ok) throw new Error(`the table answered ${answer.status}`);
    const body = await answer.json();
    if (body.view === null) throw new Unshowable(body.fault);
    this.seq = body.seq;
    this.name = body.name;
    this.you = body.you;
    this.onView(body.view, this.seq);
    this.follow();
  }

  headers() {
    return { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" };
  }

  follow(delay = 250) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.base}/ws`
      + `?token=${encodeURIComponent(this.token)}&after=${this.seq}`);
    socket.onopen = () => { delay = 250; };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type === "bye") return;
      if (data.type === "event") this.onEvent(data.seq, data.event);
      this.seq = Math.max(this.seq, data.seq);
      if (data.view) this.onView(data.view, this.seq);
    };
    socket.onclose = (closed) => {
      if (closed.code === REVOKED) this.onRevoked();
      else setTimeout(() => this.follow(Math.min(delay * 2, 5000)), delay);
    };
  }

  /** Every event after ``after``, as this role may see them: [{seq, event}]. */
  async events(after = 0) {
    const answer = await fetch(`${this.base}/events?after=${after}`, { headers: this.headers() });
    if (!answer.ok) throw new Error(`the table answered ${answer.status}`);
    return (await answer.json()).events;
  }

  /** A GM's POST to one of the table's routes other than commands; resolves to the body. */
  async post(path) {
    const answer = await fetch(`${this.base}/${path}`, { method: "POST", headers: this.headers() });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.message ?? `the table answered ${answer.status}`);
    return body;
  }

  /** Send one command; resolves to {ok, status, body}. A retry reuses its idempotency key. */
  async send(command) {
    const key = crypto.randomUUID();
    const answer = await fetch(`${this.base}/commands`, {
      method: "POST", headers: { ...this.headers(), "Idempotency-Key": key },
      body: JSON.stringify(command),
    });
    const body = await answer.json();
    return { ok: answer.ok, status: answer.status, body };
  }
}
