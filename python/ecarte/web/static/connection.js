// The engine protocol over the page's WebSocket (docs/protocol.md): one request, one
// response matched by id; events (a table's updates, a seat that left or moved) go to the
// listeners. A dropped connection is reopened (after 1 s, then up to 8 s apart) and the
// reconnectors run again; requests pending when it dropped fail with "Disconnected".
// `hello` is the server's answer to "hello" (its registry: levels, agents, records, card
// texts), asked once, on the first connection that answers it.
import { el } from "./cards.js";

export class Connection {
  constructor(onStatus) {
    this.hello = new Promise((resolve) => { this.greet = resolve; });
    this.pending = new Map();
    this.listeners = new Set();
    this.reconnectors = new Set();
    this.nextId = 1;
    this.retry = 1000;
    this.onStatus = onStatus;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ready = new Promise((resolve) => {
      ws.onopen = () => {
        this.onStatus("connected");
        resolve();
        if (this.greet) this.request("hello").then((hello) => { if (this.greet) this.greet(hello); this.greet = null; }, () => {});
      };
    });
    ws.onmessage = (event) => { this.retry = 1000; this.receive(JSON.parse(event.data)); };
    ws.onclose = (event) => {
      this.onStatus(`disconnected${event.reason ? ` (${event.reason})` : ""}: reconnecting…`);
      for (const [, p] of this.pending) p.reject(disconnected());
      this.pending.clear();
      setTimeout(() => {
        this.connect();
        this.ready.then(() => { for (const again of this.reconnectors) again(); });
      }, this.retry);
      this.retry = Math.min(2 * this.retry, 8000);
    };
  }

  receive(message) {
    if (message.event) { for (const listener of this.listeners) listener(message); return; }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message.result); else waiting.reject(message.error);
  }

  async request(cmd, fields = {}) {
    await this.ready;
    if (this.ws.readyState !== WebSocket.OPEN) throw disconnected();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }
}

function disconnected() {
  return { type: "Disconnected", message: "the connection closed" };
}

// Whether a failed rejoin means the seat is gone: the server answered (the game or the
// seat is no more), rather than the connection failing on the way (keep the token then).
export function seatGone(error) {
  return Boolean(error) && error.type !== "Disconnected";
}

// What a screen shows when its seat was taken back in another tab or window (the server's
// "moved" event): that tab plays now; this one may take the seat back.
export function seatMoved(takeBack) {
  return el("div", { class: "banner", id: "seat-moved" },
    el("b", {}, "This seat is now open in another tab or window. "),
    "It plays there; this page no longer receives its moves. ",
    el("button", { class: "primary", id: "take-back", onclick: takeBack }, "Take it back here"));
}
