import assert from "node:assert/strict";
import { test } from "node:test";

import { Link, socketUrl } from "../../server/vtt/foundry/scripts/link.mjs";

class FakeSocket {
  static opened = [];
  constructor(url) {
    this.url = url;
    FakeSocket.opened.push(this);
  }
  receive(data) { this.onmessage({ data: JSON.stringify(data) }); }
  drop() { this.onclose(); }
  close() { this.onclose?.(); }
}

function link(received) {
  FakeSocket.opened = [];
  const timers = [];
  const made = new Link({
    server: "http://127.0.0.1:8080", table: "t1", token: "secret",
    onMessage: (message) => received.push(message.seq),
    WebSocket: FakeSocket, setTimeout: (fn, ms) => timers.push({ fn, ms }), maxDelay: 4000,
  });
  return { made, timers };
}

test("wss when the server is https, ws otherwise", () => {
  assert.match(socketUrl("https://seize.example/", "t", "k", 0), /^wss:\/\/seize\.example\/api\/tables\/t\/ws\?token=k$/);
  assert.match(socketUrl("http://127.0.0.1:8080", "t", "k", 7), /^ws:\/\/127\.0\.0\.1:8080\/api\/tables\/t\/ws\?token=k&after=7$/);
});

test("a dropped link reconnects with growing pauses and resumes from the last sequence", () => {
  const received = [];
  const { made, timers } = link(received);
  made.open();
  const first = FakeSocket.opened[0];
  first.receive({ type: "view", seq: 4 });
  first.receive({ type: "event", seq: 5 });
  first.drop();
  assert.equal(timers[0].ms, 500);
  timers[0].fn();
  const second = FakeSocket.opened[1];
  assert.match(second.url, /after=5$/);
  second.receive({ type: "event", seq: 5 }); // already seen: not passed on again
  second.receive({ type: "event", seq: 6 });
  assert.deepEqual(received, [4, 5, 6]);
  second.drop();
  timers[1].fn();
  FakeSocket.opened[2].drop();
  timers[2].fn();
  FakeSocket.opened[3].drop();
  assert.deepEqual(timers.map((t) => t.ms), [500, 1000, 2000, 4000]);
});

test("an open link resets the pause, a goodbye is not a message, and close stops it", () => {
  const received = [];
  const { made, timers } = link(received);
  made.open();
  FakeSocket.opened[0].drop();
  timers[0].fn();
  FakeSocket.opened[1].onopen();
  FakeSocket.opened[1].receive({ type: "bye", seq: 0, reason: "too slow" });
  assert.deepEqual(received, []);
  made.close();
  assert.equal(timers.length, 1); // closed on purpose: no reconnect
  assert.equal(made.delay, 500);
});
