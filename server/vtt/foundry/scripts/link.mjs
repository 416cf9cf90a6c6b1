// A live link to one Seize table: a WebSocket that reconnects with growing pauses and resumes
// from the last sequence it saw, so no event is missed or seen twice. Shared by the Foundry
// module and the Roll20 bridge; the WebSocket, the timer and the probe are passed in, so tests
// drive them. A link closed on purpose stays closed, and one whose token or table the server
// no longer knows stops and says why instead of knocking every 30 seconds for ever.

/**
 * A message from the table's WebSocket (docs/api.md).
 * @typedef {{type: string, seq: number, view?: unknown, event?: unknown}} Message
 * @typedef {(callback: () => void, ms: number) => unknown} Timer
 * @typedef {"revoked" | "unauthorized" | "unknown-table"} StopReason
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
   */
  constructor({ server, table, token, onMessage, onStop = () => {},
                WebSocket = globalThis.WebSocket,
                setTimeout = (callback, ms) => globalThis.setTimeout(callback, ms),
                probe = () => readStatus(server, table, token), maxDelay = 30000 }) {
    this.server = server;
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStop = onStop;
    this.WebSocket = WebSocket;
    this.setTimeout = setTimeout;
    this.probe = probe;
    this.maxDelay = maxDelay;
    this.seq = 0;
    this.delay = 500;
    this.closed = false;
    /** @type {StopReason | null} */
    this.stopped = null;
    /** @type {WebSocket | null} */
    this.socket = null;
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
    };
    socket.onmessage = (message) => {
      if (this.closed) return;
      const data = /** @type {Message} */ (JSON.parse(message.data));
      if (data.type === "bye") return; // the close follows; reconnect then, from data.seq
      if (data.type === "event" && data.seq <= this.seq) return; // already seen
      this.seq = Math.max(this.seq, data.seq);
      this.onMessage(data);
    };
    socket.onclose = (event) => {
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

  /** Close for good: nothing reopens it, not even a reconnection already planned. */
  close() {
    this.closed = true;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }
}
