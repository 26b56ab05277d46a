// Hints: in a casual game against the hall's bots, the bot's move for this page's own seat.
//
// The server says in each state whether this seat may ask now (`hints`), so the button shows
// only then; a press asks POST /api/rooms/ID/hint and lights the suggested move on the board
// the way every board marks places and pieces (data-cell, data-at, and a panel button's
// data-move), with its notation beside the button. A hint holds only for the position it was
// thought out for (its `version`): a new position puts it away.

import { h, fill } from "./dom.js";
import { api } from "./api.js";

const LIT = ["hint", "hint-from", "hint-to"];

export class HintBox {
  constructor(roomId, toast) {
    this.roomId = roomId;
    this.toast = toast;
    this.state = null;
    this.hint = null;     // the latest hint message, while it holds
    this.asking = false;
    this.host = null;     // the board's element, where the hint is lit
    this.el = h("div", { class: "hint-box", "data-testid": "hint-box", hidden: true });
  }

  /** After a state was drawn on the board (`host`): show the button where the server allows. */
  update(state, host) {
    this.state = state;
    this.host = host;
    if (this.hint && (this.hint.version !== state.version || !state.hints)) this.hint = null;
    this.el.hidden = !state.hints;
    this.draw();
  }

  draw() {
    const { hint } = this;
    fill(this.el,
      h("button", { type: "button", "data-action": "hint", disabled: this.asking,
        title: "the bot's move for your seat (casual games against bots)",
        onclick: () => this.ask() }, this.asking ? "Thinking…" : "Hint"),
      hint ? h("span", { class: "hint-move", "data-testid": "hint-move" },
        ` Hint: ${hint.move}`) : null);
    if (this.host) lightHint(this.host, hint);
  }

  async ask() {
    if (!this.state || this.asking) return;
    this.asking = true;
    this.draw();
    try {
      const answer = await api(`/api/rooms/${encodeURIComponent(this.roomId)}/hint`,
        { method: "POST", body: { version: this.state.version } });
      const hint = (answer.replies || []).find((m) => m.type === "hint") || null;
      this.hint = hint && this.state && hint.version === this.state.version ? hint : null;
    } catch (err) {
      this.toast(err.message, "error");
    } finally {
      this.asking = false;
      this.draw();
    }
  }
}

/** Light a hint's move among `host`'s elements (none: put the last one out). */
export function lightHint(host, hint) {
  for (const el of host.querySelectorAll(LIT.map((c) => `.${c}`).join(","))) {
    el.classList.remove(...LIT);
  }
  if (!hint) return;
  const parts = hint.parts || {};
  const add = (selector, cls) => {
    for (const el of host.querySelectorAll(selector)) el.classList.add("hint", cls);
  };
  const quote = (v) => CSS.escape(String(v));
  if (parts.from !== undefined) add(`[data-at="${quote(parts.from)}"]`, "hint-from");
  if (parts.to !== undefined) add(`[data-cell="${quote(parts.to)}"]`, "hint-to");
  if (parts.cell !== undefined) {
    add(`[data-cell="${quote(parts.cell)}"]`, "hint-to");
    add(`[data-at="${quote(parts.cell)}"]`, "hint-to");
  }
  add(`[data-move="${quote(hint.move)}"]`, "hint-to");
}
