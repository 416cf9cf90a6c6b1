// A live link to one Seize table: a WebSocket that reconnects with growing pauses and resumes
// from the last sequence it saw, so no event is missed or seen twice, and that carries the
// client's commands (docs/api.md, "Commands over the WebSocket"), a POST standing in whenever
// the socket cannot. Shared by the Foundry module and the Roll20 bridge; the WebSocket, the
// timer, the probe and the POST are passed in, so tests drive them. A link closed on purpose
// stays closed, and one whose token or table the server no longer knows stops and says why
// instead of knocking every 30 seconds for ever.

/**
 * A message from the table's WebSocket (docs/api.md).
 * @typedef {{type: string, seq: number, view?: unknown, event?: unknown}} Message
 * @typedef {{type: "answer" | "refused", id: string | null, status?: number,
 *            problem?: unknown}} Reply the socket's reply to one command message
 * @typedef {(callback: () => void, ms: number) => unknown} Timer
 * @typedef {"revoked" | "unauthorized" | "unknown-table"} StopReason
 * @typedef {Record<string, unknown>} Command
 * @typedef {{ok: boolean, status: number, body: unknown}} Answer what a command came to,
 *   whichever way it went: the POST's status and body, or what the socket said in their stead
 * @typedef {(command: Command, key: string) => Promise<Answer>} Post
 * @typedef {{command: Command, key: string, socket: WebSocket,
 *            resolve: (answer: Answer) => void, reject: (error: unknown) => void}} Waiting
 * @typedef {{owner: string, sides: number, count: number, wait?: number}} DiceRequest
 * @typedef {"timed-out" | "refused" | "lost" | "offline"} Unrolled why the table's dice gave
 *   no faces: nobody rolled in time, Seize refused the request, the socket closed before the
 *   answer, or no socket was open
 * @typedef {{faces: number[], dice: string[]} | {faces: null, why: Unrolled, message?: string}}
 *   Rolled what a dice request came to
 * @typedef {{socket: WebSocket, resolve: (rolled: Rolled) => void}} Rolling
 */

/** WebSocket close code 1008 (policy violation): the server revoked the token. */
export const REVOKED = 1008;

/**
 * Why a link must not come back, from an HTTP status of the table (the browser does not show
 * a refused WebSocket upgrade's status, so the link asks the table itself): null to go on.
 * @param {number} status
 * @returns {StopReason | null}
 */
export function stopReason(status) {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 404) return "unknown-table";
  return null;
}

/**
 * The table's WebSocket URL: wss:// when the server is https.
 * @param {string} server
 * @param {string} table
 * @param {string} token
 * @param {number} [after]
 */
export function socketUrl(server, table, token, after) {
  const base = new URL(server);
  base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  base.pathname = `${base.pathname.replace(/\/$/, "")}/api/tables/${encodeURIComponent(table)}/ws`;
  base.search = new URLSearchParams({ token, ...(after ? { after: String(after) } : {}) }).toString();
  return base.toString();
}

/** How long a command sent on the socket waits for its answer there before it goes again as a
 * POST (and the socket, which may be dead without knowing it yet, is closed and opened afresh):
 * the pages' own wait (server/static/shared/client.js). */
export const ANSWER_WAIT = 5000;

/**
 * A command as a POST, under its Idempotency-Key; resolves to the answer, whatever its status,
 * and rejects only when the server cannot be reached.
 * @param {string} server
 * @param {string} table
 * @param {string} token
 * @param {Command} command
 * @param {string} key
 * @returns {Promise<Answer>}
 */
export async function postCommand(server, table, token, command, key) {
  const url = new URL(`/api/tables/${encodeURIComponent(table)}/commands`, server);
  const answer = await fetch(url, {
    method: "POST", body: JSON.stringify(command),
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json",
               "Idempotency-Key": key },
  });
  /** @type {unknown} */
  let body = null;
  try {
    body = await answer.json();
  } catch {
    // not Seize answering (a proxy's error page): the status says what there is to say
  }
  return { ok: answer.ok, status: answer.status, body };
}

/**
 * What went wrong, from a refused answer: Seize's own message when it sent one.
 * @param {{status: number, body: unknown}} answer
 */
export function problemOf({ status, body }) {
  const message = /** @type {{message?: unknown} | null} */ (body)?.message;
  return typeof message === "string" ? message : String(status);
}

/**
 * The status of a plain read of the table with the token: what a refused upgrade hides.
 * @param {string} server
 * @param {string} table
 * @param {string} token
 * @returns {Promise<number>}
 */
async function readStatus(server, table, token) {
  const url = new URL(`/api/tables/${encodeURIComponent(table)}`, server);
  const answer = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return answer.status;
}

export class Link {
  /**
   * @param {object} options
   * @param {string} options.server
   * @param {string} options.table
   * @param {string} options.token
   * @param {(message: Message) => void} options.onMessage for every event and view
   * @param {(reason: StopReason) => void} [options.onStop] the link gave up for good
   * @param {{new (url: string): WebSocket}} [options.WebSocket] for tests
   * @param {Timer} [options.setTimeout] for tests (the default wraps the global one: a browser
   *   refuses setTimeout called as another object's method)
   * @param {() => Promise<number>} [options.probe] for tests: the table's HTTP status
   * @param {number} [options.maxDelay] the longest pause between reconnections, in ms
   * @param {Post} [options.post] for tests: a command as a POST
   */
  constructor({ server, table, token, onMessage, onStop = () => {},
                WebSocket = globalThis.WebSocket,
                setTimeout = (callback, ms) => globalThis.setTimeout(callback, ms),
                probe = () => readStatus(server, table, token), maxDelay = 30000,
                post = (command, key) => postCommand(server, table, token, command, key) }) {
    this.server = server;
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStop = onStop;
    this.WebSocket = WebSocket;
    this.setTimeout = setTimeout;
    this.probe = probe;
    this.maxDelay = maxDelay;
    this.post = post;
    this.seq = 0;
    this.delay = 500;
    this.closed = false;
    /** @type {StopReason | null} */
    this.stopped = null;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** The socket while it is open: commands go on it. @type {WebSocket | null} */
    this.live = null;
    /** The id of the last command sent on a socket. */
    this.lastId = 0;
    /** Each command sent on a socket, by its id, until its answer comes. @type {Map<string, Waiting>} */
    this.waiting = new Map();
    /** Each dice request sent on a socket, by its id, until its dice answer. @type {Map<string, Rolling>} */
    this.rolling = new Map();
  }

  /** Connect, unless the link was closed or stopped: then it stays so. */
  open() {
    if (this.closed) return this;
    const socket = new this.WebSocket(socketUrl(this.server, this.table, this.token, this.seq));
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.delay = 500;
      if (this.socket === socket) this.live = socket;
    };
    socket.onmessage = (message) => {
      const data = /** @type {Message} */ (JSON.parse(message.data));
      const rolling = this.rolling.get(/** @type {{id?: string}} */ (data).id ?? "");
      if (rolling) {
        this.#rolled(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (data)));
        return;
      }
      // An answer is heard even on a link closed meanwhile: its command is settled by it.
      if (data.type === "answer" || data.type === "refused") {
        this.#answered(/** @type {Reply} */ (/** @type {unknown} */ (data)));
        return;
      }
      if (this.closed) return;
      if (data.type === "bye") return; // the close follows; reconnect then, from data.seq
      if (data.type === "event" && data.seq <= this.seq) return; // already seen
      this.seq = Math.max(this.seq, data.seq);
      this.onMessage(data);
    };
    socket.onclose = (event) => {
      if (this.live === socket) this.live = null;
      // What it carried and did not answer goes as a POST, under the same key.
      for (const [id, sent] of this.waiting) if (sent.socket === socket) this.#unanswered(id);
      for (const [id, rolling] of this.rolling) {
        if (rolling.socket !== socket) continue;
        this.rolling.delete(id);
        rolling.resolve({ faces: null, why: "lost" });
      }
      if (this.closed || this.socket !== socket) return;
      if (event?.code === REVOKED) {
        this.#stop("revoked");
        return;
      }
      if (opened) {
        this.#retry();
        return;
      }
      // Refused before it opened: a bad token or table, or a server that is down.
      this.probe().then((status) => {
        const reason = stopReason(status);
        if (reason) this.#stop(reason);
        else this.#retry();
      }, () => this.#retry());
    };
    return this;
  }

  #retry() {
    if (this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.maxDelay);
    // A timer already set when the link is closed must not bring it back.
    this.setTimeout(() => { if (!this.closed) this.open(); }, wait);
  }

  /** @param {StopReason} reason */
  #stop(reason) {
    if (this.closed) return;
    this.closed = true;
    this.stopped = reason;
    this.onStop(reason);
  }

  /** Close for good: nothing reopens it, not even a reconnection already planned. A command
   * still waiting for its answer on the socket goes as a POST once the socket has closed. */
  close() {
    this.closed = true;
    const socket = this.socket;
    this.socket = null;
    this.live = null;
    socket?.close();
  }

  /**
   * Send one command under its idempotency ``key``: on the socket while it is open, as a POST
   * while it is not. One sent on the socket and not answered there, because the socket closed
   * or stayed silent for ``ANSWER_WAIT`` ms, goes again as a POST under the same key, so it is
   * applied once whichever way it got in. Resolves to the answer, a refusal included; rejects
   * only when the server cannot be reached at all.
   * @param {Command} command
   * @param {string} key
   * @returns {Promise<Answer>}
   */
  send(command, key) {
    const socket = this.live;
    if (!socket) return this.post(command, key);
    const id = String(++this.lastId);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { command, key, socket, resolve, reject });
      this.setTimeout(() => {
        if (!this.waiting.has(id)) return; // answered in time
        this.#unanswered(id);
        if (this.live === socket) this.live = null; // no more commands into the silence
        socket.close(); // the link reconnects, as after any drop
      }, ANSWER_WAIT);
      socket.send(JSON.stringify({ type: "command", id, command, idempotency_key: key }));
    });
  }

  /**
   * Ask the table's dice for a roll (docs/api.md, "Dice requests"): the owner's dice blink and
   * their next roll of ``count`` dice of ``sides`` faces comes back. Resolves to the faces, or
   * to why there are none (the caller then rolls by itself); never rejects. Only on an open
   * socket: a roll is not worth a POST's retries, and with no socket the table's dice cannot
   * answer anyway.
   * @param {DiceRequest} request
   * @returns {Promise<Rolled>}
   */
  roll(request) {
    const socket = this.live;
    if (!socket) return Promise.resolve({ faces: null, why: "offline" });
    const id = `dice${++this.lastId}`;
    return new Promise((resolve) => {
      this.rolling.set(id, { socket, resolve });
      socket.send(JSON.stringify({ type: "dice", id, ...request }));
    });
  }

  /** What the socket said of a dice request: asked (it waits on), rolled, timed out or refused.
   * @param {Record<string, unknown>} message */
  #rolled(message) {
    const id = String(message.id);
    const rolling = this.rolling.get(id);
    if (!rolling || message.type === "dice-asked") return;
    this.rolling.delete(id);
    if (message.type === "dice-rolled") {
      rolling.resolve({ faces: /** @type {number[]} */ (message.faces),
                        dice: /** @type {string[]} */ (message.dice) });
    } else if (message.type === "refused") {
      rolling.resolve({ faces: null, why: "refused", message: problemOf({
        status: Number(message.status), body: message.problem }) });
    } else {
      rolling.resolve({ faces: null, why: "timed-out" });
    }
  }

  /** The socket's reply to one of its commands, as the POST would have answered it.
   * @param {Reply} reply */
  #answered({ type, id, ...rest }) {
    if (id === null) return; // a message the server could not read: none of ours
    const sent = this.waiting.get(id);
    if (!sent) return; // already sent again as a POST, which answers it
    this.waiting.delete(id);
    if (type === "answer") sent.resolve({ ok: true, status: 200, body: rest });
    else sent.resolve({ ok: false, status: Number(rest.status), body: rest.problem });
  }

  /** A command went on a socket and no answer came there: it goes again as a POST.
   * @param {string} id */
  #unanswered(id) {
    const sent = this.waiting.get(id);
    if (!sent) return;
    this.waiting.delete(id);
    this.post(sent.command, sent.key).then(sent.resolve, sent.reject);
  }
}
