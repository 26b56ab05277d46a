// Game clocks on the page: the server's `clock` object (remaining_ms per seat as the state was
// sent, the running seat), counted down locally between states. The server alone decides when
// time is up; the page only shows it.

import { h } from "./dom.js";
import { playerWords, t } from "./i18n.js";
import { seatWord } from "./words.js";

/** Time left as people read it: 4:05, 0:07.3 under ten seconds, 1:02:03, 2d 3h. */
export function formatMs(ms) {
  const left = Math.max(0, ms);
  const secs = Math.floor(left / 1000);
  if (secs >= 86400) return `${Math.floor(secs / 86400)}d ${Math.floor((secs % 86400) / 3600)}h`;
  if (secs >= 3600) {
    return `${Math.floor(secs / 3600)}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
  }
  if (left < 10000) return `0:0${(Math.floor(left / 100) / 10).toFixed(1)}`;
  return `${Math.floor(secs / 60)}:${pad(secs % 60)}`;
}

function pad(n) {
  return String(n).padStart(2, "0");
}

/** The clocks of one room: `set` each new clock object, `span(seat)` for a place to show a
 * seat's time; `start` ticks every span a few times a second until `stop`. */
export class Clocks {
  constructor() {
    this.clock = null;
    this.at = 0;
    this.spans = new Map();
    this.timer = null;
  }

  /** A new clock object, as it was at `at` (performance.now(); when it arrived); the seats'
   * spans are kept (the seat list keeps its elements). */
  set(clock, at = performance.now()) {
    this.clock = clock || null;
    this.at = at;
    if (!this.clock) this.spans.clear();
  }

  /** A seat's time left now (ms), or null in an untimed game. */
  remaining(seat) {
    const c = this.clock;
    if (!c) return null;
    const base = c.remaining_ms[seat];
    return c.running === seat ? base - (performance.now() - this.at) : base;
  }

  /** The span showing `seat`'s time: the same element for the seat from state to state, so
   * a page that keeps it in place never sees it flicker or start again. */
  span(seat) {
    if (!this.clock) return null;
    let el = this.spans.get(seat);
    if (!el) {
      el = h("span", { class: "clock", "data-testid": "clock", "data-clock-seat": seat });
      this.spans.set(seat, el);
    }
    this.paint();
    return el;
  }

  paint() {
    const c = this.clock;
    if (!c) return;
    for (const [seat, el] of this.spans) {
      const ms = this.remaining(seat);
      const text = formatMs(ms);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", c.running === seat);
      el.classList.toggle("low", ms < c.low_ms);
      // An arena's game says who went berserk (half the time, no increment).
      const berserk = Array.isArray(c.berserk) && c.berserk.includes(seat);
      el.classList.toggle("berserk", berserk);
      el.dataset.berserk = berserk ? "yes" : "no";
      el.title = t("page.lobby.clock_line", { control: c.control })
        + (berserk ? ` (${t("page.room.berserk_on")})` : "");
    }
  }

  start() {
    if (this.timer === null) this.timer = setInterval(() => this.paint(), 100);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}

/** The tab's title: whose turn it is, so a player sees it from another tab. */
export function turnTitle(state) {
  const game = `${state.title} · gamehall`;
  if (state.status === "waiting") return `${t("page.clock.waiting")} · ${game}`;
  if (state.status === "finished") return `${t("page.clock.over")} · ${game}`;
  const seat = state.seats[state.to_move];
  if (!seat) return game;
  if (state.to_move === state.seat) return `● ${t("page.clock.your_move")} · ${game}`;
  return `${t("page.clock.to_move", { who: seat.player ? playerWords(seat.player) : seatWord(seat) })} · ${game}`;
}
