// A WebSocket kept alive, for a room's connection and the lobby's feed alike: a ping every
// 20 s, and a link silent for 45 s closed, so that its owner's reconnection starts.

export class KeepAlive {
  /** @param {{ws: WebSocket|null, lastHeard: number, ping: Function}} owner */
  constructor(owner) {
    this.owner = owner;
    this.timer = null;
  }

  start() {
    this.stop();
    this.timer = setInterval(() => {
      const ws = this.owner.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.owner.lastHeard > 45000) {
        ws.close();  // nothing heard for a long time: assume the link is dead
        return;
      }
      this.owner.ping();
    }, 20000);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** A frame heard on `owner`'s socket: noted (the link lives), and its JSON, or null. */
export function heard(owner, ev) {
  owner.lastHeard = Date.now();
  try {
    return JSON.parse(ev.data);
  } catch (_) {
    return null;
  }
}

/** Connect `owner` again after its delay, which doubles up to 8 s (reset on each open). */
export function retryLater(owner) {
  owner.timer = setTimeout(() => owner.connect(), owner.delay);
  owner.delay = Math.min(owner.delay * 2, 8000);
}
