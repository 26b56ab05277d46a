// A turn composed, then sent. The steps of this page's turn are not played one by one: each step
// the board submits is shown on the board from the server's `preview` (the position after the
// steps, from a copy of the room that is never committed: the page plays no game itself), can be
// taken back (the Back button, Escape), and the steps go to the server together as one `turn`
// once they make a whole turn (`open` false: chance, the other seat or the end comes next) —
// at once, or when the player confirms, as the player chose (kept in this browser).
//
// room.js holds one Composer per room; it asks `send` to send a message (returning its id or
// null) and `redraw` to draw the room again, and reads `shown(state)` for what to draw.

import { h, patch } from "./dom.js";
import { t } from "./i18n.js";

const AT_ONCE = "gamehall.turnAtOnce";

/** Whether a whole turn is sent as soon as its last step is chosen (else on confirmation). */
export function sendsAtOnce() {
  return localStorage.getItem(AT_ONCE) !== "confirm";
}

export class Composer {
  constructor({ send, redraw }) {
    this.send = send;
    this.redraw = redraw;
    this.version = null;   // the room's version the turn is composed against
    this.previews = [];    // the server's preview after each step chosen, in order
    this.asked = null;     // {id, steps} of the preview asked and not answered yet
    this.sent = null;      // the id of the turn sent and not answered yet
    this.el = h("div", { class: "turn-bar", "data-testid": "turn-bar", hidden: true });
  }

  /** The steps chosen so far. */
  get steps() {
    const last = this.previews[this.previews.length - 1];
    return last ? last.steps.map((s) => s.move) : [];
  }

  /** Whether a request of this composer waits for its answer (the board takes no click). */
  get busy() {
    return this.asked !== null || this.sent !== null;
  }

  /** A new state from the server: a new position ends the composition (the turn was played,
   * or the time ran out); the same one keeps it. */
  state(state) {
    if (this.version !== null && state.version !== this.version) {
      this.clear();
      this.sent = null;
    }
  }

  clear() {
    this.version = null;
    this.previews = [];
    this.asked = null;
  }

  /** The board chose `move` as the next step of this page's turn in `state`. */
  step(state, move) {
    if (this.busy) return;
    if (this.version !== state.version) this.clear();
    const steps = [...this.steps, move];
    const id = this.send({ type: "preview", moves: steps, version: state.version });
    if (id !== null) this.asked = { id, version: state.version };
  }

  /** The server's preview: shown if it answers the last question. A whole turn is sent at once
   * when the player asked for that, and then not drawn first: the board shows the turn as the
   * server played it (a flip with the tile it turned up). */
  previewed(msg) {
    if (!this.asked || msg.id !== this.asked.id) return;
    this.version = this.asked.version;
    this.asked = null;
    if (!msg.open && sendsAtOnce()) {
      this.sent = this.send({ type: "turn", moves: msg.steps.map((s) => s.move),
        version: this.version });
      return;
    }
    this.previews.push(msg);
    this.redraw();
  }

  /** The server refused message `id`: a step not taken (the board shows the steps before), or
   * a turn not played (the composition starts again). True when it was this composer's. */
  refused(id) {
    if (this.asked && this.asked.id === id) {
      this.asked = null;
      return true;
    }
    if (this.sent === id) {
      this.sent = null;
      this.clear();
      this.redraw();
      return true;
    }
    return false;
  }

  /** Send the steps as one turn. */
  confirm() {
    const last = this.previews[this.previews.length - 1];
    if (!last || last.open || this.sent) return;
    this.sent = this.send({ type: "turn", moves: this.steps, version: this.version });
    this.redraw();
  }

  /** Take the last step back (nothing was played: only the preview before it is shown). */
  back() {
    if (this.busy || !this.previews.length) return false;
    this.previews.pop();
    if (!this.previews.length) this.clear();
    this.redraw();
    return true;
  }

  /** What the board draws: `state`, or with steps chosen the position after them (their moves
   * at the end of the move list, and the next steps as the legal moves). */
  shown(state) {
    const last = this.previews[this.previews.length - 1];
    if (!last || state.version !== this.version) return state;
    return { ...state, composing: true, version: last.version, status: last.status,
      to_move: last.to_move, legal_moves: this.sent ? [] : last.legal_moves,
      legal: this.sent ? [] : last.legal, view: last.view, hints: false,
      moves: state.moves.concat(last.steps) };
  }

  /** The bar under the status line: the steps chosen, Back, Send, and the player's choice. */
  draw(myTurn) {
    const last = this.previews[this.previews.length - 1];
    this.el.hidden = !myTurn && !last;
    const atOnce = h("label", { class: "small turn-at-once" },
      h("input", { type: "checkbox", "data-action": "turn-at-once", checked: sendsAtOnce(),
        onchange: (ev) => localStorage.setItem(AT_ONCE, ev.target.checked ? "now" : "confirm") }),
      ` ${t("page.turn.at_once")}`);
    if (!last) {
      patch(this.el, atOnce);
      return;
    }
    const n = this.previews.length;
    patch(this.el,
      h("span", { class: "turn-steps", "data-testid": "turn-steps" },
        last.open ? t("page.turn.steps", { n }) : t("page.turn.complete", { n })),
      h("button", { type: "button", "data-action": "turn-back", disabled: this.busy,
        title: t("page.turn.back_title"), onclick: () => this.back() }, t("page.turn.back")),
      h("button", { type: "button", class: "primary", "data-action": "turn-send",
        disabled: last.open || this.busy, onclick: () => this.confirm() }, t("page.turn.send")),
      atOnce);
  }
}
