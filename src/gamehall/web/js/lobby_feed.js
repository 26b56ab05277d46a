// The lobby pushed by the server (/ws/lobby): every room, pool and seek once (`lobby`), then
// only their changes (`lobby_change`) as they happen; the page asks for nothing and polls
// nothing. Reconnects by itself (0.5 s doubling to 8 s) and starts again from a fresh snapshot;
// a ping every 20 s notices a dead link. The lobby is the same for everyone; a page with a token
// names it (`identify`, never in the URL) only to be sent its own pairings (`paired`).

import { identity } from "./api.js";
import { KeepAlive, heard, retryLater } from "./keepalive.js";

const SECTIONS = ["rooms", "pools", "seeks"];

export class LobbyFeed {
  /**
   * @param {{onChange: Function, onStatus: Function, onPaired: Function}} handlers
   *   onChange(sections) after each snapshot or change: the Map of every section's lines by key,
   *   newest change last; onStatus("open" | "closed"); onPaired(msg) for our own pairing
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.sections = Object.fromEntries(SECTIONS.map((s) => [s, new Map()]));
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    this.timer = null;
    this.keepAlive = new KeepAlive(this);
    this.lastHeard = 0;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/lobby`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.lastHeard = Date.now();
      this.identify();
      this.startPinging();
    };
    ws.onmessage = (ev) => {
      const msg = heard(this, ev);
      if (!msg) return;
      if (msg.type === "lobby") this.snapshot(msg);
      else if (msg.type === "lobby_change") this.change(msg);
      else if (msg.type === "paired") this.handlers.onPaired?.(msg);
    };
    ws.onclose = () => {
      this.stopPinging();
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.handlers.onStatus("closed");
      retryLater(this);
    };
    ws.onerror = () => { /* onclose follows and schedules the retry */ };
  }

  /** Every line (newest first on the wire; kept newest last, as changes arrive). */
  snapshot(msg) {
    const now = performance.now();
    for (const s of SECTIONS) {
      const lines = new Map();
      for (const line of [...(msg[s] || [])].reverse()) lines.set(line.id, { ...line, received: now });
      this.sections[s] = lines;
    }
    this.handlers.onStatus("open");
    this.handlers.onChange(this.sections);
  }

  change(msg) {
    for (const [s, keys] of Object.entries(msg.gone || {})) {
      for (const key of keys) this.sections[s]?.delete(key);
    }
    const now = performance.now();
    for (const [s, lines] of Object.entries(msg.put || {})) {
      const map = this.sections[s];
      if (!map) continue;
      for (const line of lines) {
        map.delete(line.id);  // to the end: the newest change
        map.set(line.id, { ...line, received: now });  // when its clocks were as it says
      }
    }
    this.handlers.onChange(this.sections);
  }

  /** Name this page's token (again, after choosing a nickname): our pairings come here. */
  identify() {
    if (identity.token && this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "identify", token: identity.token }));
    }
  }

  startPinging() {
    this.keepAlive.start();
  }

  stopPinging() {
    this.keepAlive.stop();
  }

  ping() {
    this.ws.send(JSON.stringify({ type: "ping" }));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopPinging();
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
