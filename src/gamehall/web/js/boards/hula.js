// Hula: the hex-hex board as SVG, rows lettered from the bottom and cells numbered from the left
// (e6); click a legal cell to place, a swap button while the pie rule allows it, the winner's
// loop drawn at the end.

import { h, s, fill, svgRoot, points, fmt, dataOf } from "../dom.js";
import { myTurn, wordButtons } from "./index.js";

const R = 20;                       // hex radius (centre to corner)
const W = Math.sqrt(3) * R;         // hex width
const ROW = 1.5 * R;                // row spacing
export const STONE_COLOURS = { first: "#d0342c", second: "#2a62c9", neutral: "#8d8d8d" };

/** Cell centres by name, from the row lengths (row a at the bottom, centred rows). */
export function layout(rowLengths) {
  const rows = rowLengths.length;
  const widest = Math.max(...rowLengths);
  const margin = W * 1.4;
  const width = widest * W + 2 * margin;
  const height = (rows - 1) * ROW + 2 * R + 2 * R;
  const cells = [];
  rowLengths.forEach((len, r) => {
    const y = height / 2 + ((rows - 1) / 2 - r) * ROW;
    for (let i = 0; i < len; i++) {
      const x = width / 2 + (i - (len - 1) / 2) * W;
      cells.push({ name: `${String.fromCharCode(97 + r)}${i + 1}`, row: r, index: i, x, y, len });
    }
  });
  return { width, height, cells, byName: new Map(cells.map((c) => [c.name, c])) };
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (30 + 60 * k);
    pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return points(pts);
}

/** The board as an SVG element, for a view and the legal moves this page may click. */
export function renderHula(view, { legal = [], mine = false } = {}) {
  const geo = layout(view.row_lengths);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "hula", role: "img",
    "aria-label": "Hula board" });
  const legalSet = new Set(mine ? legal : []);
  const board = view.board || {};
  const cellsLayer = s("g", { class: "cells" });
  for (const c of geo.cells) {
    const centre = c.name === view.centre;
    const stone = board[c.name];
    const g = s("g", {
      class: `cell${centre ? " centre" : ""}${legalSet.has(c.name) ? " legal" : ""}`
        + `${c.name === view.last_move ? " last" : ""}`,
      "data-cell": c.name, "data-stone": stone || (centre ? "centre" : "empty"),
    }, s("polygon", { points: hexPoints(c.x, c.y, R - 0.8) }));
    if (centre) {
      g.append(s("circle", { cx: fmt(c.x), cy: fmt(c.y), r: R * 0.45, class: "centre-mark" }),
        s("circle", { cx: fmt(c.x), cy: fmt(c.y), r: R * 0.12, class: "centre-dot" }));
    } else if (stone) {
      g.append(stoneShape(stone, c.x, c.y));
    } else {
      g.append(s("text", { x: fmt(c.x), y: fmt(c.y + 3.5), class: "cell-label" }, c.name));
    }
    if (c.name === view.last_move) {
      g.append(s("circle", { cx: fmt(c.x), cy: fmt(c.y), r: R * 0.78, class: "last-ring" }));
    }
    cellsLayer.append(g);
  }
  svg.append(cellsLayer);
  // row letters at both ends of every row
  const labels = s("g", { class: "row-labels" });
  view.row_lengths.forEach((len, r) => {
    const first = geo.byName.get(`${String.fromCharCode(97 + r)}1`);
    const last = geo.byName.get(`${String.fromCharCode(97 + r)}${len}`);
    const letter = String.fromCharCode(97 + r);
    labels.append(s("text", { x: fmt(first.x - W * 0.95), y: fmt(first.y + 4) }, letter),
      s("text", { x: fmt(last.x + W * 0.95), y: fmt(last.y + 4) }, letter));
  });
  svg.append(labels);
  if (view.loop && view.loop.length) {
    const pts = view.loop.map((n) => geo.byName.get(n)).filter(Boolean).map((c) => [c.x, c.y]);
    const winner = view.winner && view.colours ? view.colours[view.winner] : "first";
    svg.append(s("polygon", { points: points(pts), class: "loop-under" }),
      s("polygon", { points: points(pts), class: "loop", "data-testid": "loop",
        stroke: STONE_COLOURS[winner] || "#222" }));
    for (const [x, y] of pts) {
      svg.append(s("circle", { cx: fmt(x), cy: fmt(y), r: R * 0.3, class: "loop-dot" }));
    }
  }
  return svg;
}

function stoneShape(stone, x, y) {
  if (stone === "neutral") {
    const d = R * 0.6;
    return s("g", { class: "stone neutral" },
      s("circle", { cx: fmt(x), cy: fmt(y), r: R * 0.68, fill: STONE_COLOURS.neutral }),
      s("polygon", { points: points([[x, y - d * 0.6], [x + d * 0.6, y], [x, y + d * 0.6],
        [x - d * 0.6, y]]), fill: "#fff", opacity: 0.8 }));
  }
  return s("circle", { class: `stone ${stone}`, cx: fmt(x), cy: fmt(y), r: R * 0.68,
    fill: STONE_COLOURS[stone] });
}

export function createBoard(host, { submit }) {
  const main = h("div", { class: "board-main" });
  const panel = h("div", { class: "board-panel" });
  fill(host, h("div", { class: "board-wrap" }, main, panel));
  let current = null;

  main.addEventListener("click", (ev) => {
    if (!current || !myTurn(current)) return;
    const cell = dataOf(ev.target, "cell");
    if (cell && current.legal_moves.includes(cell)) submit(cell);
  });

  return {
    update(state) {
      current = state;
      const view = state.view;
      const mine = myTurn(state);
      fill(main, renderHula(view, { legal: state.legal_moves, mine }));
      const legend = ["first", "second"].map((seatName) => {
        const colour = view.colours ? view.colours[seatName] : seatName;
        const seat = state.seats.find((x) => x.name === seatName);
        return h("li", {}, h("span", { class: "swatch", style: `background:${STONE_COLOURS[colour]}` }),
          ` ${seatName}${seat && seat.player ? ` (${seat.player})` : ""} plays the ${colour} colour`
          + `${view.you === seatName ? " — you" : ""}`);
      });
      fill(panel,
        h("ul", { class: "legend" }, legend,
          h("li", {}, h("span", { class: "swatch", style: `background:${STONE_COLOURS.neutral}` }),
            " neutral stone")),
        view.last_move ? h("p", { class: "small" }, `Last move: ${view.last_move}`) : null,
        mine ? h("div", { class: "buttons" }, wordButtons(["swap"], state.legal_moves, submit,
          { swap: "Swap (take over the first stone)" })) : null,
        mine ? h("p", { class: "hint" }, "Click an empty cell to place a stone.") : null,
        view.loop && view.loop.length
          ? h("p", { class: "small" }, `Winning loop: ${view.loop.length} stones`) : null);
    },
    destroy() {},
  };
}
