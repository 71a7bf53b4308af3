// The engine protocol over the page's WebSocket (docs/protocol.md): one request, one
// response matched by id; events (a shared table's updates) go to the listeners.
export class Connection {
  constructor(onStatus) {
    this.pending = new Map();
    this.listeners = new Set();
    this.reconnectors = new Set();
    this.nextId = 1;
    this.onStatus = onStatus;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ready = new Promise((resolve) => { this.ws.onopen = () => { this.onStatus("connected"); resolve(); }; });
    this.ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.ws.onclose = () => {
      this.onStatus("disconnected: reconnecting…");
      for (const [, p] of this.pending) p.reject({ type: "Disconnected", message: "the connection closed" });
      this.pending.clear();
      setTimeout(() => {
        this.connect();
        this.ready.then(() => { for (const again of this.reconnectors) again(); });
      }, 1000);
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
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }
}
