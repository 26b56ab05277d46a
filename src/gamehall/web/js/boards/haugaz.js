// Haugaz: the point grid with both diagonals through every cell, stacks drawn as piles of discs
// (bottom to top, owner on top) with their height; click a point to place, then drag a stack (or
// click it, then its target) to move; pass, cake setup and the side choice as buttons. The grid
// is drawn once; each stack keeps its element while it stands (and when it grows).

import { h, s, fill, svgRoot, fmt, keyed } from "../dom.js";
import { seatPlayer } from "../links.js";
import { say, t } from "../i18n.js";
import { seatWord } from "../words.js";

const SP = 52;       // spacing between points
const M = 52;        // margin around the grid
const DISC = 17;     // disc radius
const LAYER = 3.2;   // vertical offset per piece in a pile

export function column(c) {
  return String.fromCharCode(97 + c);
}

/** Point name -> {c, r, x, y}, for a board of `size` points per side (rank 1 at the bottom). */
export function geometry(size) {
  const pts = new Map();
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      pts.set(`${column(c)}${r + 1}`, { c, r, x: M + c * SP, y: M + (size - 1 - r) * SP });
    }
  }
  return { size, width: 2 * M + (size - 1) * SP, height: 2 * M + (size - 1) * SP, pts };
}

/** What stays: lines, coordinates, the points; layers for the stacks and the marks. */
function skeleton(size) {
  const geo = geometry(size);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "haugaz", role: "img",
    "aria-label": t("page.haugaz.board") });
  svg.append(s("defs", {}, s("marker", { id: "haugaz-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
  s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#e0457b" }))));
  const lines = s("g", { class: "lines" });
  const end = M + (size - 1) * SP;
  for (let i = 0; i < size; i++) {
    const v = M + i * SP;
    lines.append(s("line", { x1: M, y1: v, x2: end, y2: v, class: "grid-line" }),
      s("line", { x1: v, y1: M, x2: v, y2: end, class: "grid-line" }));
  }
  for (let i = 0; i < size - 1; i++) {
    for (let j = 0; j < size - 1; j++) {
      const x = M + i * SP;
      const y = M + j * SP;
      lines.append(s("line", { x1: x, y1: y, x2: x + SP, y2: y + SP, class: "diag-line" }),
        s("line", { x1: x + SP, y1: y, x2: x, y2: y + SP, class: "diag-line" }));
    }
  }
  const coords = s("g", { class: "coords" });
  for (let i = 0; i < size; i++) {
    const v = M + i * SP;
    coords.append(s("text", { x: v, y: M - 32, class: "coord" }, column(i)),
      s("text", { x: v, y: end + 40, class: "coord" }, column(i)),
      s("text", { x: M - 36, y: M + (size - 1 - i) * SP + 4, class: "coord" }, String(i + 1)),
      s("text", { x: end + 36, y: M + (size - 1 - i) * SP + 4, class: "coord" }, String(i + 1)));
  }
  const pointsLayer = s("g", { class: "points" });
  for (const [name, p] of geo.pts) {
    pointsLayer.append(s("g", { class: "point", "data-cell": name },
      s("circle", { cx: p.x, cy: p.y, r: SP * 0.45, class: "hit" }),
      s("circle", { cx: p.x, cy: p.y, r: 3, class: "spot" })));
  }
  const stacks = s("g", { class: "stacks" });
  const marks = s("g", { class: "marks" });
  svg.append(lines, coords, pointsLayer, stacks, marks);
  return { size, geo, svg, stacks, marks };
}

/** Bring a stack's element up to date: where it stands, its discs (when they changed). */
function drawStack(g, { name, pieces, p, placed }) {
  const owner = pieces[pieces.length - 1];
  g.setAttribute("transform", `translate(${fmt(p.x)},${fmt(p.y)})`);
  g.classList.toggle("black", owner === "black");
  g.classList.toggle("white", owner === "white");
  const pile = `${pieces.join(" ")}${placed ? " placed" : ""}`;
  if (g.getAttribute("data-pile") === pile) return;
  g.setAttribute("data-pile", pile);
  g.setAttribute("data-at", name);
  g.setAttribute("data-height", pieces.length);
  g.setAttribute("data-owner", owner);
  const shown = pieces.slice(-8);
  const lift = (shown.length - 1) * LAYER / 2;
  const top = lift - (shown.length - 1) * LAYER;
  fill(g, shown.map((colour, i) => s("circle", {
    cx: 0, cy: fmt(lift - i * LAYER), r: DISC, class: i === shown.length - 1 ? `disc ${colour}` : "",
    fill: colour === "black" ? "#222" : "#fafafa", stroke: colour === "black" ? "#000" : "#666",
    "stroke-width": 1,
  })),
  s("text", { x: 0, y: fmt(top + 5) }, String(pieces.length)),
  placed ? s("circle", { cx: 0, cy: fmt(top), r: DISC - 5, fill: "none", stroke: "#e0457b",
    "stroke-width": 1.5 }) : null);
}

/** The latest turn's marks: a ring on each placement, an arrow along each move. */
function drawMarks(board, turn) {
  const pts = board.geo.pts;
  const ring = (p) => s("circle", { cx: p.x, cy: p.y, r: DISC + 6, class: "last-mark" });
  fill(board.marks, turn.map((m) => {
    if (m.kind === "move") {
      const a = pts.get(m.from);
      const b = pts.get(m.to);
      if (!a || !b) return null;
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const k = (DISC + 4) / len;
      return [s("line", { x1: fmt(a.x + (b.x - a.x) * k), y1: fmt(a.y + (b.y - a.y) * k),
        x2: fmt(b.x - (b.x - a.x) * k), y2: fmt(b.y - (b.y - a.y) * k), class: "last-path" }),
      ring(b)];
    }
    const p = m.cell !== undefined ? pts.get(m.cell) : null;
    return p ? ring(p) : null;
  }));
}

/** The game's part of the board (see shell.js): picking up, dropping and lighting are the
 * shell's. */
export function createBoard(ui) {
  let board = null;
  let notice = null;  // why the place last clicked plays nothing (the view's `unplayable`)

  function panel() {
    const { state, mine, offer: o } = ui;
    const v = state.view;
    const colourOf = (seatIndex) => {
      if (v.black_seat === null || v.black_seat === undefined) return null;
      return seatIndex === v.black_seat ? "black" : "white";
    };
    const rows = state.seats.map((seat) => {
      const colour = colourOf(seat.index);
      return h("li", {}, colour ? h("span", { class: "swatch",
        style: `background:${colour === "black" ? "#222" : "#fafafa"}` }) : null,
      ` ${seatWord(seat.name)}`, seatPlayer(seat),
      ` ${colour ? t("page.haugaz.plays", { colour }) : t("page.haugaz.no_side")}`);
    });
    const heights = ["black", "white"].map((c) => h("tr", {}, h("th", {}, t(`page.haugaz.colour.${c}`)),
      h("td", { "data-heights": c }, (v.heights?.[c] || []).join(" ") || "—")));
    let hint = null;
    if (mine) {
      const cake = [...o.places.values()].find((e) => e.kind === "cake");
      if (cake) hint = t("page.haugaz.hint_cake", { colour: cake.colour });
      else if (o.places.size) hint = t("page.haugaz.hint_place");
      else if (o.moves.size) hint = t("page.haugaz.hint_move");
      else if (o.words.some((e) => e.kind === "side")) hint = t("page.haugaz.hint_side");
    }
    return [
      h("ul", { class: "legend" }, rows),
      h("table", { class: "scores" }, h("tr", {}, h("th", {}, t("page.haugaz.side")), h("th", {}, t("page.haugaz.heights"))),
        heights),
      v.phase !== "play" ? h("p", { class: "small" }, t("page.haugaz.setup", { phase: phaseText(v.phase) })) : null,
      v.passes ? h("p", { class: "small" }, t("page.haugaz.passed")) : null,
      ui.buttons({ side: (e) => t("page.haugaz.play_side", { colour: e.colour }), pass: t("page.boards.pass") }),
      hint ? h("p", { class: "instructions" }, hint) : null,
      notice ? h("p", { class: "notice", role: "alert", "data-testid": "board-notice" },
        say(notice)) : null,
    ];
  }

  return {
    draw() {
      const view = ui.state.view;
      if (!board || board.size !== view.options.size) {
        board = skeleton(view.options.size);
        fill(ui.main, board.svg);
      }
      const stacks = Object.entries(view.stacks || {})
        .map(([name, pieces]) => ({ name, pieces, p: board.geo.pts.get(name), placed: view.placed === name }))
        .filter((x) => x.p);
      keyed(board.stacks, stacks, (x) => x.name, () => s("g", { class: "stack" }), drawStack);
      drawMarks(board, ui.turn);
    },
    panel,
    /** A new position, or a refusal: the last click's reason no longer holds. */
    reset() {
      notice = null;
    },
    /** A click on a point that plays nothing: the rules' reason, if the view gives one. */
    elsewhere(cell) {
      notice = ui.state.view.unplayable?.[cell] || null;
      ui.redraw();
    },
    /** A moved stack slides from where it stood; a stack placed on grows from the point. */
    animate(moves) {
      const pts = board.geo.pts;
      const at = (name) => board.stacks.querySelector(`[data-at="${CSS.escape(name)}"]`);
      const px = (p, extra = "") => `translate(${fmt(p.x)}px, ${fmt(p.y)}px)${extra}`;
      return moves.map((m) => {
        if (m.kind === "move" && pts.has(m.from) && pts.has(m.to) && at(m.to)) {
          return { el: at(m.to), keyframes: [{ transform: px(pts.get(m.from)) },
            { transform: px(pts.get(m.to)) }] };
        }
        if (m.cell !== undefined && pts.has(m.cell) && at(m.cell)) {
          const p = pts.get(m.cell);
          return { el: at(m.cell), keyframes: [{ transform: px(p, " scale(0.3)") },
            { transform: px(p, " scale(1)") }] };
        }
        return null;
      });
    },
  };
}

function phaseText(phase) {
  return ["cake_black", "cake_white", "choose"].includes(phase) ? t(`page.haugaz.phase.${phase}`) : phase;
}
