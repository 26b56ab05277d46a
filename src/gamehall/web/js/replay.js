// Stepping back and forth through a game's record, turn by turn as the move list counts them
// (a Hotu Matua turn is a roll and several ship moves: "3 / 11", not "20 / 125"). The server
// replays the record and sends the spectator's view after any number of moves
// (GET /api/rooms/ID/replay/STEP); views already seen are kept, so stepping back costs nothing.
// A review's mark may show a step inside a turn: the counter then says which step of it.

import { h, fill } from "./dom.js";
import { api } from "./api.js";
import { say, t } from "./i18n.js";
import { groupTurns } from "./moves.js";

export class Replay {
  constructor(roomId, state, hooks) {
    this.roomId = roomId;
    this.state = state;          // the room's state message when the replay started
    this.hooks = hooks;
    this.total = state.moves.length;
    this.ends = [0, ...groupTurns(state.moves).map((turn) => turn.end)];  // steps between turns
    this.step = this.total;
    this.target = this.total;    // the step last asked for: ◀ and ▶ count from it, not from the
                                 // step shown, so quick clicks add up while a step is fetched
    this.cache = new Map();
    this.token = 0;
    this.onKey = (ev) => {
      if (ev.target && /input|textarea|select/i.test(ev.target.tagName)) return;
      if (ev.key === "ArrowLeft") this.go(this.turnBefore());
      else if (ev.key === "ArrowRight") this.go(this.turnAfter());
      else if (ev.key === "Home") this.go(0);
      else if (ev.key === "End") this.go(this.total);
      else return;
      ev.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
  }

  mount(bar) {
    this.label = h("span", { class: "replay-step", "data-testid": "replay-step" });
    const button = (text, title, action, step) => h("button", {
      type: "button", title, "data-replay": action, onclick: () => this.go(step()),
    }, text);
    fill(bar,
      button("|◀", t("page.replay.first"), "first", () => 0),
      button("◀", t("page.replay.back"), "back", () => this.turnBefore()),
      this.label,
      button("▶", t("page.replay.forward"), "forward", () => this.turnAfter()),
      button("▶|", t("page.replay.last"), "last", () => this.total),
      h("button", { type: "button", class: "primary", "data-replay": "close",
        onclick: () => this.close() }, t("page.replay.close")));
  }

  /** The step where the turn before the one asked for last ends (◀). */
  turnBefore() {
    return [...this.ends].reverse().find((end) => end < this.target) ?? 0;
  }

  /** The step where the turn after the one asked for last ends (▶). */
  turnAfter() {
    return this.ends.find((end) => end > this.target) ?? this.total;
  }

  /** Where `step` (the step shown) stands, in turns: after turn `turn` of `turns`, or inside
   * turn `turn` at its step `step` of `steps`. */
  place(step = this.step) {
    const turns = this.ends.length - 1;
    const done = this.ends.filter((end) => end <= step).length - 1;
    if (this.ends.includes(step)) return { turn: done, turns, step: 0, steps: 0 };
    return { turn: done + 1, turns, step: step - this.ends[done],
      steps: this.ends[done + 1] - this.ends[done] };
  }

  /** Show the position after `step` actions; `hint` (a move's parts: from, to, cell) is lit on
   * the board (a review's better move), or none. */
  async go(step, hint = null) {
    step = Math.max(0, Math.min(this.total, step));
    this.target = step;
    const token = ++this.token;
    let data = this.cache.get(step);
    if (!data) {
      try {
        data = await api(`/api/rooms/${encodeURIComponent(this.roomId)}/replay/${step}`);
      } catch (err) {
        if (token === this.token) this.target = this.step;  // stay counting from what shows
        this.hooks.error(t("page.replay.failed", { error: say(err) }));
        return;
      }
      this.cache.set(step, data);
    }
    if (token !== this.token) return;  // a later click overtook this one
    this.step = step;
    this.hint = hint;
    if (this.label) this.label.textContent = t("page.replay.at", this.place());
    const st = this.state;
    await this.hooks.show({
      type: "state", replay: true, room: st.room, game: st.game, title: st.title,
      options: st.options, status: "replay", version: -1, seat: null, seats: st.seats,
      to_move: data.to_move, legal_moves: [], legal: [], moves: st.moves.slice(0, step), view: data.view,
      result: null, outcome: null, hint,
    });
  }

  close() {
    this.destroy();
    this.hooks.close();
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }
}
