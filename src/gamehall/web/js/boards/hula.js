// Hula: the hex-hex board as SVG, rows lettered from the bottom and cells numbered from the left
// (e6); click a legal cell to place, a swap button while the pie rule allows it, the winner's
// loop drawn at the end. The board's elements stay from state to state: only what changed is
// drawn again.

import { h, s, fill, svgRoot, points, fmt } from "../dom.js";
import { seatPlayer } from "../links.js";
import { t } from "../i18n.js";
import { seatWord } from "../words.js";

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

/** The board's elements that stay while the stones change: one group per cell (its hex and
 * what stands on it), the row letters, and layers for the marks and the winning loop. */
function skeleton(view) {
  const geo = layout(view.row_lengths);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "hula", role: "img",
    "aria-label": t("page.hula.board") });
  const cells = new Map();
  const cellsLayer = s("g", { class: "cells" });
  for (const c of geo.cells) {
    const content = s("g");
    const g = s("g", { class: `cell${c.name === view.centre ? " centre" : ""}`, "data-cell": c.name },
      s("polygon", { points: hexPoints(c.x, c.y, R - 0.8) }), content);
    cells.set(c.name, { g, content, c });
    cellsLayer.append(g);
  }
  const labels = s("g", { class: "row-labels" });
  view.row_lengths.forEach((len, r) => {
    const letter = String.fromCharCode(97 + r);
    const first = geo.byName.get(`${letter}1`);
    const last = geo.byName.get(`${letter}${len}`);
    labels.append(s("text", { x: fmt(first.x - W * 0.95), y: fmt(first.y + 4) }, letter),
      s("text", { x: fmt(last.x + W * 0.95), y: fmt(last.y + 4) }, letter));
  });
  const marks = s("g", { class: "marks" });
  const loop = s("g", { class: "loop-layer" });
  svg.append(cellsLayer, labels, marks, loop);
  return { key: `${view.row_lengths.join(",")}|${view.centre}`, geo, svg, cells, marks, loop };
}

/** What stands on a cell: the centre mark, a stone, or the cell's name. */
function cellContent(c, stone, centre) {
  if (centre) {
    return [s("circle", { cx: fmt(c.x), cy: fmt(c.y), r: R * 0.45, class: "centre-mark" }),
      s("circle", { cx: fmt(c.x), cy: fmt(c.y), r: R * 0.12, class: "centre-dot" })];
  }
  if (stone) return [stoneShape(stone, c.x, c.y)];
  return [s("text", { x: fmt(c.x), y: fmt(c.y + 3.5), class: "cell-label" }, c.name)];
}

/** Draw `view` on the board's elements, in place: only cells whose stone changed are redrawn. */
function drawView(board, view) {
  const stones = view.board || {};
  for (const [name, { g, content, c }] of board.cells) {
    const centre = name === view.centre;
    const stone = stones[name] || (centre ? "centre" : "empty");
    if (g.getAttribute("data-stone") !== stone) {
      g.setAttribute("data-stone", stone);
      fill(content, cellContent(c, stones[name], centre));
    }
    g.classList.toggle("last", name === view.last_move);
  }
  const last = board.geo.byName.get(view.last_move);
  fill(board.marks, last
    ? s("circle", { cx: fmt(last.x), cy: fmt(last.y), r: R * 0.78, class: "last-ring" }) : null);
  fill(board.loop);
  if (view.loop && view.loop.length) {
    const pts = view.loop.map((n) => board.geo.byName.get(n)).filter(Boolean).map((c) => [c.x, c.y]);
    const winner = view.winner && view.colours ? view.colours[view.winner] : "first";
    board.loop.append(s("polygon", { points: points(pts), class: "loop-under" }),
      s("polygon", { points: points(pts), class: "loop", "data-testid": "loop",
        stroke: STONE_COLOURS[winner] || "#222" }),
      pts.map(([x, y]) => s("circle", { cx: fmt(x), cy: fmt(y), r: R * 0.3, class: "loop-dot" })));
  }
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

/** The game's part of the board (see shell.js): clicks on cells are the shell's. */
export function createBoard(ui) {
  let board = null;
  return {
    draw() {
      const view = ui.state.view;
      const key = `${view.row_lengths.join(",")}|${view.centre}`;
      if (!board || board.key !== key) {
        board = skeleton(view);
        fill(ui.main, board.svg);
      }
      drawView(board, view);
    },
    /** A placed stone drops onto its cell. */
    animate(moves) {
      return moves.filter((m) => m.cell !== undefined && board.cells.has(m.cell)).map((m) => ({
        el: board.cells.get(m.cell).content,
        keyframes: [{ transform: "translate(0px, -34px)", opacity: 0 },
          { transform: "translate(0px, 0px)", opacity: 1 }],
      }));
    },
    panel() {
      const { state, mine } = ui;
      const view = state.view;
      const legend = ["first", "second"].map((seatName) => {
        const colour = view.colours ? view.colours[seatName] : seatName;
        const seat = state.seats.find((x) => x.name === seatName);
        return h("li", {}, h("span", { class: "swatch", style: `background:${STONE_COLOURS[colour]}` }),
          ` ${seatWord(seatName)}`, seatPlayer(seat),
          ` ${t("page.hula.plays", { colour, you: view.you === seatName ? "yes" : "no" })}`);
      });
      return [
        h("ul", { class: "legend" }, legend,
          h("li", {}, h("span", { class: "swatch", style: `background:${STONE_COLOURS.neutral}` }),
            ` ${t("page.hula.neutral")}`)),
        view.last_move ? h("p", { class: "small" }, t("page.boards.last_move", { move: view.last_move })) : null,
        ui.buttons({ swap: t("page.hula.swap") }),
        mine ? h("p", { class: "instructions" }, t("page.hula.hint")) : null,
        view.loop && view.loop.length
          ? h("p", { class: "small" }, t("page.hula.loop", { n: view.loop.length })) : null,
      ];
    },
  };
}
