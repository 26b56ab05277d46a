// A finished game's review with the bots' eyes (POST and GET /api/rooms/ID/review): asked for,
// its progress while the server's review workers go through the game, then a graph of each
// seat's winning chance over the game (for 3–4 players each seat's expected rank, 1 at the top:
// the review's `ranks`, gamehall.ai.ranks), the moves marked ?! (inaccuracy), ? (mistake) and
// ?? (blunder) by the drop in winning chance with the bot's preferred move, and each player's
// accuracy beside their marks. A point of the graph or a marked move jumps the room's replay
// there; a marked move shows the position before it with the better move lit on the board (the
// board shell's `hint`, the same for every game). A move the search looked at too little to
// judge (`sure` false) says "not judged", never passes for a good one; a review that marked
// nothing says how deep it looked. Each seat's line is drawn in its board's colour: the review's
// `colours` (as the pieces were at the end, a swap included), else the game's `seat_colours`
// from /api/games; the page has no palette of its own.

import { h, s, fill, fmt, points } from "./dom.js";
import { api, games } from "./api.js";
import { playerWords, say, t } from "./i18n.js";
import { seatWord } from "./words.js";

/** Between looks at a running review; the room's WebSocket tells its progress as it goes. */
const POLL_MS = 2000;
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const NEUTRAL = "#888888";  // only where the server named no colour at all
const WIDTH = 600;
const HEIGHT = 160;
const PAD = 6;

/** The review of room `roomId` in `host`; hooks: jump(step, hint) shows replay step `step`
 * (the position after that many actions) with `hint` (a move's parts, or null) lit,
 * seats() the room's seats (names and players, from its state) and game() the game's name. */
export class ReviewPanel {
  constructor(roomId, host, hooks) {
    this.roomId = roomId;
    this.host = host;
    this.hooks = hooks;
    this.timer = null;
    this.alive = true;
    this.job = null;
    this.cursor = null;   // the graph's line at the step shown
  }

  /** Ask for the review at `level` (easy, medium, hard; none: the hall's default) and follow
   * it until it is done. */
  async open(level = null) {
    this.host.hidden = false;
    clearTimeout(this.timer);
    this.job = null;  // drawn afresh, whatever was shown
    fill(this.host, h("p", { class: "muted" }, t("page.review.asking")));
    try {
      this.show(await api(this.url(), { method: "POST", body: level ? { level } : {} }));
    } catch (err) {
      fill(this.host, h("p", { class: "error", "data-testid": "review-error" }, say(err)),
        this.levels());
    }
  }

  /** A review at another level: the bots' levels in this game, each its own review. */
  levels() {
    const pick = h("select", { "aria-label": t("page.review.level"), "data-testid": "review-level" },
      ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: this.job && this.job.level === l },
        t("page.review.level_word", { level: l }))));
    return h("p", { class: "small" }, t("page.review.at"), " ", pick, " ",
      h("button", { type: "button", "data-action": "review-level",
        onclick: () => this.open(pick.value) }, t("page.review.go")));
  }

  url() {
    return `/api/rooms/${encodeURIComponent(this.roomId)}/review`;
  }

  show(job) {
    if (!this.alive) return;
    // A poll and a pushed end can both answer "done": drawing it again would drop the move the
    // reader picked (and its lit better move), so a review already drawn stays as it is.
    const drawn = this.job && this.job.status === "done" && this.job.level === job.level;
    this.job = job;
    if (drawn && job.status === "done") return;
    if (job.status === "done") this.drawDone(job);
    else if (job.status === "failed") {
      fill(this.host, h("p", { class: "error", "data-testid": "review-error" },
        t("page.review.failed", { error: job.error || t("page.review.unknown_error") })),
      h("button", { type: "button", onclick: () => this.open(this.job.level) }, t("page.review.try_again")));
    } else {
      this.drawProgress(job);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  async poll() {
    if (!this.alive) return;
    try {
      this.show(await api(`${this.url()}?level=${encodeURIComponent(this.job.level)}`));
    } catch (err) {
      this.timer = setTimeout(() => this.poll(), POLL_MS * 3);  // a hiccup: try again later
    }
  }

  /** A `review` message of the room's WebSocket: progress drawn at once, the end read now. */
  pushed(msg) {
    if (!this.alive || !this.job || msg.level !== this.job.level || this.job.status === "done") return;
    if (msg.status === "running") this.drawProgress({ ...this.job, ...msg });
    else this.poll();
  }

  drawProgress(job) {
    const words = job.status === "queued" ? t("page.review.queued")
      : t("page.review.progress", { done: job.done, total: job.total || "?" });
    fill(this.host, h("h2", {}, t("page.archive.review")),
      h("progress", { max: job.total || 1, value: job.done, "data-testid": "review-progress" }),
      h("p", { class: "small muted", "data-testid": "review-status" }, words));
  }

  /** A finished review: drawn at once in the colours it carries; one stored before reviews
   * kept them waits for the game's from /api/games. */
  drawDone(job) {
    const seats = this.hooks.seats();
    const own = job.review.colours;
    if (own && own.length === seats.length) {
      this.drawReview(job, own);
      return;
    }
    gameColours(seats, this.hooks.game && this.hooks.game()).then((colours) => {
      if (this.alive && this.job === job) this.drawReview(job, colours);  // else: another was asked for
    });
  }

  drawReview(job, colours) {
    const review = job.review;
    const seats = this.hooks.seats();
    fill(this.host,
      h("h2", {}, t("page.archive.review"), " ", h("span", { class: "small muted" },
        t("page.review.simulations", { n: review.simulations }))),
      accuracyTable(review, seats, colours),
      this.graph(review, seats, colours),
      legend(review),
      this.picked = h("p", { class: "review-picked", "data-testid": "review-picked", hidden: true }),
      this.markList(review, seats, job.level),
      this.levels());
  }

  /** The graph: one line per seat over every position (`plotted`: chances, or for 3–4 seats
   * expected ranks, 1 at the top); a click on a column jumps there. */
  graph(review, seats, colours) {
    const view = plotted(review);
    const n = Math.max(1, view.values.length - 1);
    const x = (i) => PAD + (i * (WIDTH - 2 * PAD)) / n;
    const y = (v) => HEIGHT - PAD - v * (HEIGHT - 2 * PAD);
    const svg = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "review-graph",
      "data-testid": "review-graph", "data-axis": view.axis, role: "img",
      "aria-label": t("page.review.graph_label", { axis: view.axis }) });
    svg.append(s("line", { x1: PAD, x2: WIDTH - PAD, y1: y(0.5), y2: y(0.5), class: "mid" }),
      s("text", { x: PAD + 2, y: PAD + 10, class: "axis", "data-end": "top" }, view.top),
      s("text", { x: PAD + 2, y: HEIGHT - PAD - 2, class: "axis", "data-end": "bottom" }, view.bottom),
      s("text", { x: WIDTH - PAD - 2, y: PAD + 10, class: "axis name", "text-anchor": "end" }, view.label));
    // each line over a grey casing, so a pale seat colour (Haugaz's White) still shows
    seats.forEach((_, seat) => {
      const line = points(view.values.map((c, i) => [x(i), y(c[seat])]));
      svg.append(s("polyline", { points: line, class: "casing" }),
        s("polyline", { points: line, stroke: colours[seat], class: "chance", "data-seat": seat }));
    });
    review.steps.forEach((st) => {
      if (!st.mark && !unjudged(st)) return;
      const at = view.axis === "rank" ? view.values[st.index + 1][st.seat] : st.after[st.seat];
      svg.append(st.mark
        ? s("circle", { cx: fmt(x(st.index + 1)), cy: fmt(y(at)), r: 4,
          class: `mark ${st.mark}`, fill: colours[st.seat] })
        : s("circle", { cx: fmt(x(st.index + 1)), cy: fmt(y(at)), r: 3, class: "unjudged",
          stroke: colours[st.seat], "data-index": st.index },
        s("title", {}, t("page.review.not_judged_title"))));
    });
    const w = (WIDTH - 2 * PAD) / n;
    view.values.forEach((_, i) => svg.append(s("rect", {
      x: fmt(x(i) - w / 2), y: 0, width: fmt(w), height: HEIGHT, class: "hit",
      "data-step": i, onclick: () => this.hooks.jump(i, null) },
    s("title", {}, t("page.review.after_move", { n: i })))));
    this.cursor = s("line", { y1: 0, y2: HEIGHT, class: "cursor", x1: -10, x2: -10 });
    this.x = x;
    svg.append(this.cursor);
    return svg;
  }

  /** The marked moves and those not judged, in the order played; where none is marked, how
   * deep the review looked (simulations a position, level, moves searched). */
  markList(review, seats, level) {
    const listed = review.steps.filter((st) => st.mark || unjudged(st));
    const marked = listed.filter((st) => st.mark);
    const depth = marked.length ? null : h("p", { class: "muted", "data-testid": "review-depth" },
      t("page.review.no_marks_depth", { n: review.simulations, moves: searched(review),
        level: t("page.review.level_word", { level }) }));
    if (!listed.length) return h("div", { "data-testid": "review-marks" }, depth);
    return h("div", { "data-testid": "review-marks" }, depth,
      h("ol", { class: "review-marks" }, listed.map((st) => h("li", {}, st.mark
        ? h("button", { type: "button", class: `link mark ${st.mark}`, "data-index": st.index,
          title: t("page.review.mark_title", { mark: st.mark }),
          onclick: () => this.pick(st, seats) },
        `${st.turn}. ${seatName(seats, st.seat)} ${st.move}${SYMBOLS[st.mark]}`)
        : h("button", { type: "button", class: "link unjudged", "data-index": st.index,
          title: t("page.review.not_judged_title"), onclick: () => this.hooks.jump(st.index, null) },
        `${st.turn}. ${seatName(seats, st.seat)} ${st.move}`),
      st.mark && st.best ? h("span", { class: "small muted" }, ` ${t("page.review.better", { move: st.best })}`) : null,
      st.mark ? null : h("span", { class: "small muted", "data-testid": "not-judged" }, ` ${t("page.review.not_judged")}`)))));
  }

  /** A marked move: the position before it with the better move lit, and in words. */
  pick(st, seats) {
    const chance = (v) => `${Math.round(100 * v[st.seat])}%`;
    const rank = st.rank ? t("page.review.picked_rank", { before: st.rank[0].toFixed(1),
      after: st.rank[1].toFixed(1) }) : "";
    fill(this.picked, t("page.review.picked", { move: `${st.turn}. ${seatName(seats, st.seat)} `
      + `${st.move}${SYMBOLS[st.mark]}`, before: chance(st.before), after: chance(st.after), rank }),
    " ", h("strong", {}, st.best), ".");
    this.picked.hidden = false;
    this.hooks.jump(st.index, st.best_parts || { move: st.best });
  }

  /** The replay shows `step`: the graph's cursor goes there. */
  at(step) {
    if (!this.cursor || !this.x) return;
    const cx = fmt(this.x(step));
    this.cursor.setAttribute("x1", cx);
    this.cursor.setAttribute("x2", cx);
  }

  destroy() {
    this.alive = false;
    clearTimeout(this.timer);
  }
}

function seatName(seats, seat) {
  const one = seats[seat];
  if (!one) return t("page.words.seat", { n: seat + 1 });
  return one.player ? `${seatWord(one.name)} (${playerWords(one.player)})` : seatWord(one.name);
}

/** A move the search looked at too little to judge: no mark, no accuracy, and said so. */
function unjudged(st) {
  return st.kind === "move" && !st.sure;
}

/** The moves the review searched (choices: not chance, not forced). */
function searched(review) {
  return review.steps.filter((st) => st.kind === "move").length;
}

/** Each seat's colour from the game's description in /api/games, by seat name (a review stored
 * before reviews kept their own); grey only where the server named none. */
async function gameColours(seats, game) {
  let named = {};
  try {
    named = (await games()).find((g) => g.name === game)?.seat_colours || {};
  } catch (err) {
    named = {};  // the catalogue did not load: the lines are grey, the review still shows
  }
  return seats.map((seat) => named[seat.name] || NEUTRAL);
}

/** Each player's accuracy beside their marks, and their moves not judged. */
function accuracyTable(review, seats, colours) {
  const notJudged = (seat) => review.steps.filter((st) => st.seat === seat && unjudged(st)).length;
  return h("table", { class: "review-accuracy", "data-testid": "review-accuracy" },
    h("tr", {}, h("th", {}, t("page.archive.player")), h("th", {}, t("page.review.accuracy")),
      Object.values(SYMBOLS).map((sym) => h("th", {}, sym)), h("th", {}, t("page.review.not_judged"))),
    seats.map((_, i) => h("tr", { "data-seat": i },
      h("td", {}, h("span", { class: "swatch", style: `background:${colours[i]}` }), " ",
        seatName(seats, i)),
      h("td", { class: "accuracy" }, review.accuracy[i] === null ? "–" : `${Math.round(review.accuracy[i])}%`),
      Object.keys(SYMBOLS).map((m) => h("td", { "data-mark": m }, String(review.marks[i][m]))),
      h("td", { class: "not-judged" }, String(notJudged(i))))));
}

/** What the graph plots, each as a value 0..1 (1 at the top): every position's winning chance
 * per seat, or where the review has them (3–4 seats) its expected ranks (the server's
 * `ranks`: 1 first, n last), rank 1 at the top and rank n at the bottom. */
function plotted(review) {
  if (!review.ranks) {
    return { axis: "chance", label: t("page.review.chance"), top: "100%", bottom: "0%",
      values: review.steps.map((st) => st.before).concat([review.final]) };
  }
  const n = review.seats.length;
  return { axis: "rank", label: t("page.review.rank"), top: "1", bottom: String(n),
    values: review.ranks.map((r) => r.map((v) => (n - v) / (n - 1))) };
}

function legend(review) {
  return h("p", { class: "small muted" },
    t("page.review.legend", { axis: review.ranks ? "rank" : "chance" }));
}
