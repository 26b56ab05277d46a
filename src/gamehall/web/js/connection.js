// A room's WebSocket that reconnects by itself: backoff 0.5 s doubling to 8 s, a ping every 20 s
// so a dead connection is noticed, and a `sync` after every (re)connect (the server also sends
// the state on connect; asking again costs little and covers a missed frame).
//
// The token never goes in the URL (servers log URLs): the first message names it (`identify`).
// Until the server's answer (a `welcome` carrying that message's id) arrives, what it sent is
// for an anonymous watcher and is skipped; the answer brings the chat and the state again.

import { identity } from "./api.js";
import { t } from "./i18n.js";
import { KeepAlive, heard, retryLater } from "./keepalive.js";

export class RoomConnection {
  /**
   * @param {string} roomId
   * @param {{onMessage: Function, onStatus: Function}} handlers
   *   onStatus("connecting" | "open" | "closed", detail)
   */
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers;
    this.ws = null;
    this.delay = 500;
    this.closed = false;
    this.timer = null;
    this.keepAlive = new KeepAlive(this);
    this.lastHeard = 0;
    this.nextId = 1;
    this.identifying = null;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  connect() {
    if (this.closed) return;
    this.handlers.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.lastHeard = Date.now();
      this.identifying = null;
      if (identity.token) {
        this.identifying = this.nextId++;
        ws.send(JSON.stringify({ type: "identify", token: identity.token, id: this.identifying }));
      }
      this.handlers.onStatus("open");
      this.startPinging();
    };
    ws.onmessage = (ev) => {
      const msg = heard(this, ev);
      if (msg === null) return;
      if (this.identifying !== null) {
        if (!msg || msg.id !== this.identifying) return;  // sent before it read `identify`
        this.identifying = null;
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (ev) => {
      this.stopPinging();
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4404) {
        this.closed = true;
        this.handlers.onStatus("gone", t("page.connection.gone"));
        return;
      }
      if (ev.code === 4401) {
        // The token was signed out (here, on another device, or everywhere): reconnecting
        // with it would be refused again, so this page forgets it and watches on, asking for a
        // nickname at the next thing it does as a player.
        identity.forget();
        this.handlers.onStatus("closed", t("page.connection.signed_out"));
        this.timer = setTimeout(() => this.connect(), 0);
        return;
      }
      this.handlers.onStatus("closed", t("page.connection.lost", { seconds: this.delay / 1000 }));
      retryLater(this);
    };
    ws.onerror = () => { /* onclose follows and schedules the retry */ };
  }

  startPinging() {
    this.keepAlive.start();
  }

  stopPinging() {
    this.keepAlive.stop();
  }

  ping() {
    this.send({ type: "ping" });
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a message; returns false (and sends nothing) while disconnected. */
  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify({ id: this.nextId++, ...message }));
    return true;
  }

  /** Drop the current socket (the reconnect logic takes over); used by tests and on wake-up. */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopPinging();
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
