// A live link to one Seize table: a WebSocket that reconnects with growing pauses and resumes
// from the last sequence it saw, so no event is missed or seen twice. Shared by the Foundry
// module and the Roll20 bridge; the WebSocket and the timer are passed in, so tests drive it.

/** The table's WebSocket URL: wss:// when the server is https. */
export function socketUrl(server, table, token, after) {
  const base = new URL(server);
  base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  base.pathname = `${base.pathname.replace(/\/$/, "")}/api/tables/${encodeURIComponent(table)}/ws`;
  base.search = new URLSearchParams({ token, ...(after ? { after: String(after) } : {}) }).toString();
  return base.toString();
}

export class Link {
  /**
   * @param {object} options server, table, token; onMessage(message) for every event and view;
   *   WebSocket (constructor) and setTimeout for tests; maxDelay in ms. (The default timer
   *   wraps the global one: a browser refuses setTimeout called as another object's method.)
   */
  constructor({ server, table, token, onMessage, WebSocket = globalThis.WebSocket,
                setTimeout = (callback, ms) => globalThis.setTimeout(callback, ms),
                maxDelay = 30000 }) {
    Object.assign(this, { server, table, token, onMessage, WebSocket, setTimeout, maxDelay });
    this.seq = 0;
    this.delay = 500;
    this.closed = false;
    this.socket = null;
  }

  open() {
    this.closed = false;
    const socket = new this.WebSocket(socketUrl(this.server, this.table, this.token, this.seq));
    this.socket = socket;
    socket.onopen = () => { this.delay = 500; };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
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
