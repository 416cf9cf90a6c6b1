// A live link to one Seize table: a WebSocket that reconnects with growing pauses and resumes
// from the last sequence it saw, so no event is missed or seen twice. Shared by the Foundry
// module and the Roll20 bridge; the WebSocket and the timer are passed in, so tests drive it.

/**
 * A message from the table's WebSocket (docs/api.md).
 * @typedef {{type: string, seq: number, view?: unknown, event?: unknown}} Message
 * @typedef {(callback: () => void, ms: number) => unknown} Timer
 */

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

export class Link {
  /**
   * @param {object} options
   * @param {string} options.server
   * @param {string} options.table
   * @param {string} options.token
   * @param {(message: Message) => void} options.onMessage for every event and view
   * @param {{new (url: string): WebSocket}} [options.WebSocket] for tests
   * @param {Timer} [options.setTimeout] for tests (the default wraps the global one: a browser
   *   refuses setTimeout called as another object's method)
   * @param {number} [options.maxDelay] the longest pause between reconnections, in ms
   */
  constructor({ server, table, token, onMessage, WebSocket = globalThis.WebSocket,
                setTimeout = (callback, ms) => globalThis.setTimeout(callback, ms),
                maxDelay = 30000 }) {
    this.server = server;
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.WebSocket = WebSocket;
    this.setTimeout = setTimeout;
    this.maxDelay = maxDelay;
    this.seq = 0;
    this.delay = 500;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.socket = null;
  }

  open() {
    this.closed = false;
    const socket = new this.WebSocket(socketUrl(this.server, this.table, this.token, this.seq));
    this.socket = socket;
    socket.onopen = () => { this.delay = 500; };
    socket.onmessage = (message) => {
      const data = /** @type {Message} */ (JSON.parse(message.data));
      if (data.type === "bye") return; // the close follows; reconnect then, from data.seq
      if (data.type === "event" && data.seq <= this.seq) return; // already seen
      this.seq = Math.max(this.seq, data.seq);
      this.onMessage(data);
    };
    socket.onclose = () => {
      if (this.closed) return;
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, this.maxDelay);
      this.setTimeout(() => this.open(), wait);
    };
    return this;
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}
