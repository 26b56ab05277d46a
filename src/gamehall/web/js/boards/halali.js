// Halali!: 7x7 tiles; click a face-down tile to flip it, drag a face-up tile (or click it, then
// its target) to move or capture; in the end phase drag your tile onto the Halali! exit picture
// beside the board where an exit is legal. Face-down tiles are drawn as backs only: the view
// holds nothing else about them (their identity is drawn by chance when they are flipped).

import { h, s, fill, svgRoot, fmt, dataOf, pointerGestures } from "../dom.js";
import { myTurn, wordButtons } from "./index.js";

const SQ = 64;
const PAD = 4;
const OFF = 78;               // room around the board for the exit pictures
const FILES = "abcdefg";
export const EXITS = ["d7", "g4", "d1", "a4"];   // the edge squares the exits sit beyond
const EXIT_DIR = { d7: [0, -1], g4: [1, 0], d1: [0, 1], a4: [-1, 0] };

export const TILES = {
  B: { name: "bear", side: "beasts", points: 10 },
  F: { name: "fox", side: "beasts", points: 5 },
  L: { name: "lumberjack", side: "humans", points: 5 },
  H: { name: "hunter", side: "humans", points: 5 },
  P: { name: "pheasant", side: "green", points: 3 },
  D: { name: "duck", side: "green", points: 2 },
  T: { name: "tree", side: "tree", points: 2 },
};
const RIFLE = { "^": [0, -1], ">": [1, 0], v: [0, 1], "<": [-1, 0] };

/** Square name -> top-left corner in SVG units (rank 7 at the top). */
export function squareXY(name) {
  const f = FILES.indexOf(name[0]);
  const r = Number(name.slice(1)) - 1;
  return { x: OFF + f * SQ, y: OFF + (6 - r) * SQ };
}

/** The board rows of the view as a map square -> token ("?" face down, "." empty). */
export function tokens(view) {
  const out = new Map();
  view.board.forEach((row, i) => {
    row.split(/\s+/).forEach((tok, f) => out.set(`${FILES[f]}${7 - i}`, tok));
  });
  return out;
}

/** Legal move strings sorted: flips, moves (from -> to -> notation), exits (from -> edge -> notation). */
export function classify(legal) {
  const out = { flips: new Map(), moves: new Map(), exits: new Map(), words: [] };
  const add = (map, a, b, m) => {
    if (!map.has(a)) map.set(a, new Map());
    map.get(a).set(b, m);
  };
  for (const m of legal) {
    let x;
    if ((x = m.match(/^flip ([a-g][1-7])$/))) out.flips.set(x[1], m);
    else if ((x = m.match(/^([a-g][1-7])-exit-([a-g][1-7])$/))) add(out.exits, x[1], x[2], m);
    else if ((x = m.match(/^([a-g][1-7])[-x]([a-g][1-7])$/))) add(out.moves, x[1], x[2], m);
    else out.words.push(m);
  }
  return out;
}

/** The latest move to mark: a flip's square, or a move's from and to. */
export function lastMove(moves) {
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.seat === null) continue;
    let x;
    if ((x = m.move.match(/^flip ([a-g][1-7])$/))) return { squares: [x[1]] };
    if ((x = m.move.match(/^([a-g][1-7])-exit-([a-g][1-7])$/))) return { squares: [x[1]], exit: x[2] };
    if ((x = m.move.match(/^([a-g][1-7])[-x]([a-g][1-7])$/))) return { squares: [x[1], x[2]], path: true };
    return null;
  }
  return null;
}

function tileShape(square, tok, x, y, cls) {
  const g = s("g", { class: `tile ${cls}`, "data-square": square,
    transform: `translate(${fmt(x)},${fmt(y)})` });
  const size = SQ - 2 * PAD;
  g.append(s("rect", { x: PAD, y: PAD, width: size, height: size, rx: 7, class: "face" }));
  if (tok === "?") {
    g.classList.add("down");
    g.append(s("path", { class: "back-mark",
      d: `M ${PAD + 10} ${PAD + 10} L ${SQ - PAD - 10} ${SQ - PAD - 10} M ${SQ - PAD - 10} ${PAD + 10} `
        + `L ${PAD + 10} ${SQ - PAD - 10}` }),
    s("rect", { x: PAD + 6, y: PAD + 6, width: size - 12, height: size - 12, rx: 4, class: "back-mark" }));
    return g;
  }
  const info = TILES[tok[0]];
  g.classList.add(info.side);
  g.setAttribute("data-token", tok);
  g.append(s("text", { x: SQ / 2, y: SQ / 2 + 6, class: "glyph" }, tok[0]),
    s("text", { x: SQ / 2, y: SQ - PAD - 5, class: "name" }, info.name),
    s("text", { x: SQ - PAD - 4, y: PAD + 10, class: "points", "text-anchor": "end" }, String(info.points)));
  if (tok[0] === "H" && RIFLE[tok[1]]) {
    const [dx, dy] = RIFLE[tok[1]];
    const cx = SQ / 2 + dx * 20;
    const cy = SQ / 2 - 2 + dy * 20;
    const px = -dy;
    const py = dx;
    g.append(s("line", { x1: fmt(SQ / 2 + dx * 8), y1: fmt(SQ / 2 - 2 + dy * 8), x2: fmt(cx), y2: fmt(cy),
      class: "rifle" }),
    s("polygon", { class: "rifle", points: `${fmt(cx + dx * 6)},${fmt(cy + dy * 6)} `
      + `${fmt(cx + px * 4)},${fmt(cy + py * 4)} ${fmt(cx - px * 4)},${fmt(cy - py * 4)}` }));
    g.setAttribute("data-rifle", tok[1]);
  }
  return g;
}

function exitShape(edge, { open, legal }) {
  const { x, y } = squareXY(edge);
  const [dx, dy] = EXIT_DIR[edge];
  const cx = x + SQ / 2 + dx * (SQ / 2 + OFF / 2 - 4);
  const cy = y + SQ / 2 + dy * (SQ / 2 + OFF / 2 - 4);
  const w = dx ? OFF - 14 : SQ + 10;
  const hgt = dx ? SQ + 10 : OFF - 14;
  const ax = cx;
  const ay = cy + 10;
  const px = -dy;
  const py = dx;
  const arrow = [[ax + dx * 11, ay + dy * 11], [ax - dx * 7 + px * 10, ay - dy * 7 + py * 10],
    [ax - dx * 7 - px * 10, ay - dy * 7 - py * 10]].map(([x1, y1]) => `${fmt(x1)},${fmt(y1)}`).join(" ");
  return s("g", { class: `exit${open ? " open" : ""}${legal ? " legal" : ""}`, "data-exit": edge },
    s("rect", { x: fmt(cx - w / 2), y: fmt(cy - hgt / 2), width: fmt(w), height: fmt(hgt), rx: 10, class: "pic" }),
    s("text", { x: fmt(cx), y: fmt(cy - 10) }, "Halali!"),
    s("polygon", { points: arrow, class: "arrow" }));
}

/** The board as SVG: squares, tiles, exits, marks. */
export function renderHalali(view, { legal = [], mine = false, selected = null, moves = [] } = {}) {
  const width = 2 * OFF + 7 * SQ;
  const svg = svgRoot(width, width, { "data-game": "halali", role: "img", "aria-label": "Halali! board" });
  const offer = classify(mine ? legal : []);
  const endPhase = view.phase === "end";
  const squares = s("g", { class: "squares" });
  const tiles = s("g", { class: "tiles" });
  const toks = tokens(view);
  const targets = selected ? (offer.moves.get(selected) || new Map()) : new Map();
  const exitTargets = selected ? (offer.exits.get(selected) || new Map()) : new Map();
  for (const [sq, tok] of toks) {
    const { x, y } = squareXY(sq);
    squares.append(s("rect", { x, y, width: SQ, height: SQ, class: `square${targets.has(sq) ? " sq-target" : ""}`,
      "data-cell": sq }));
    if (tok !== ".") {
      const cls = [offer.flips.has(sq) ? "flippable" : "",
        offer.moves.has(sq) || offer.exits.has(sq) ? "movable" : "",
        selected === sq ? "selected" : ""].join(" ");
      tiles.append(tileShape(sq, tok, x, y, cls));
    }
  }
  svg.append(squares, tiles);
  const coords = s("g", { class: "coords" });
  for (let i = 0; i < 7; i++) {
    coords.append(s("text", { x: OFF + i * SQ + SQ / 2, y: OFF + 7 * SQ + 14, class: "coord" }, FILES[i]),
      s("text", { x: OFF - 10, y: OFF + i * SQ + SQ / 2 + 4, class: "coord" }, String(7 - i)));
  }
  svg.append(coords);
  const exits = s("g", { class: "exits" });
  for (const edge of EXITS) exits.append(exitShape(edge, { open: endPhase, legal: exitTargets.has(edge) }));
  svg.append(exits);
  const marks = s("g", { class: "marks" });
  for (const sq of targets.keys()) {
    const { x, y } = squareXY(sq);
    marks.append(s("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 8, class: "target-mark" }));
  }
  const last = lastMove(moves);
  if (last) {
    for (const sq of last.squares) {
      const { x, y } = squareXY(sq);
      marks.append(s("rect", { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, rx: 8, class: "last-mark" }));
    }
  }
  if (view.locked) {
    const { x, y } = squareXY(view.locked);
    marks.append(s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ / 2 - 3, class: "locked" }));
  }
  svg.append(marks);
  return svg;
}

export function createBoard(host, { submit }) {
  const main = h("div", { class: "board-main" });
  const panel = h("div", { class: "board-panel" });
  fill(host, h("div", { class: "board-wrap" }, main, panel));
  let current = null;
  let selected = null;
  let svg = null;
  let ghost = null;

  const offer = () => classify(current && myTurn(current) ? current.legal_moves : []);

  function draw() {
    const o = offer();
    if (selected && !o.moves.has(selected) && !o.exits.has(selected)) selected = null;
    svg = renderHalali(current.view, { legal: current.legal_moves, mine: myTurn(current),
      selected, moves: current.moves });
    fill(main, svg);
    pointerGestures(svg, {
      source: (el) => {
        const sq = dataOf(el, "square");
        return sq && (offer().moves.has(sq) || offer().exits.has(sq)) ? sq : null;
      },
      drop: (el) => {
        const exit = dataOf(el, "exit");
        if (exit) return `exit:${exit}`;
        return dataOf(el, "square") || dataOf(el, "cell");
      },
      onDragStart: (sq) => {
        selected = sq;
        mark();
        const tile = svg.querySelector(`.tile[data-square="${sq}"]`);
        if (tile) {
          ghost = tile.cloneNode(true);
          ghost.classList.add("drag-ghost");
          svg.append(ghost);
        }
      },
      onDrag: (_sq, pt) => {
        if (ghost) ghost.setAttribute("transform", `translate(${fmt(pt.x - SQ / 2)},${fmt(pt.y - SQ / 2)})`);
      },
      onDragEnd: () => {
        if (ghost) ghost.remove();
        ghost = null;
      },
      onDrop: (from, to) => play(from, to),
      onClick: (el) => click(el),
    });
    drawPanel();
  }

  /** Submit the move from `from` to a square or `exit:EDGE`, if legal; else drop the selection. */
  function play(from, to) {
    const o = offer();
    let move = null;
    if (to && to.startsWith("exit:")) move = o.exits.get(from)?.get(to.slice(5));
    else if (to) move = o.moves.get(from)?.get(to);
    selected = null;
    if (move) submit(move);
    else mark();
  }

  function click(el) {
    if (!myTurn(current)) return;
    const o = offer();
    const exit = dataOf(el, "exit");
    const sq = dataOf(el, "square") || dataOf(el, "cell");
    if (selected && exit) return play(selected, `exit:${exit}`);
    if (selected && sq && o.moves.get(selected)?.has(sq)) return play(selected, sq);
    if (sq && o.flips.has(sq)) {
      selected = null;
      return submit(o.flips.get(sq));
    }
    if (sq && (o.moves.has(sq) || o.exits.has(sq))) {
      selected = selected === sq ? null : sq;
      return mark();
    }
    selected = null;
    return mark();
  }

  /** Highlight the selected tile's targets and exits in place (no redraw during a drag). */
  function mark() {
    svg.querySelectorAll(".target-mark").forEach((el) => el.remove());
    svg.querySelectorAll(".tile.selected").forEach((el) => el.classList.remove("selected"));
    svg.querySelectorAll(".exit.legal").forEach((el) => el.classList.remove("legal"));
    svg.querySelectorAll(".sq-target").forEach((el) => el.classList.remove("sq-target"));
    if (!selected) return;
    const o = offer();
    svg.querySelector(`.tile[data-square="${selected}"]`)?.classList.add("selected");
    const marks = svg.querySelector(".marks");
    for (const sq of o.moves.get(selected)?.keys() || []) {
      const { x, y } = squareXY(sq);
      marks.prepend(s("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 8, class: "target-mark" }));
      svg.querySelector(`.square[data-cell="${sq}"]`)?.classList.add("sq-target");
    }
    for (const edge of o.exits.get(selected)?.keys() || []) {
      svg.querySelector(`[data-exit="${edge}"]`)?.classList.add("legal");
    }
  }

  function drawPanel() {
    const v = current.view;
    const o = offer();
    const sideRow = (side) => {
      const seatIndex = v.seats ? v.seats[side] : null;
      const seat = current.seats[seatIndex];
      return h("tr", { "data-side": side, title: seat && seat.player ? `${side}: ${seat.player}` : side },
        h("th", {}, side, seat && seat.player ? h("div", { class: "small muted" }, seat.player) : null),
        h("td", { "data-score": side }, String(v.scores?.[side] ?? 0)),
        h("td", {}, String(v.tiles_taken?.[side] ?? 0)));
    };
    const left = v.end_phase_turns_left;
    const faceDown = Object.values(v.unrevealed || {}).reduce((a, b) => a + b, 0);
    let hint = null;
    if (myTurn(current)) {
      const ways = [];
      if (o.flips.size) ways.push("click a face-down tile to flip it");
      if (o.moves.size) ways.push("drag a tile (or click it, then its target) to move or capture");
      if (o.exits.size) ways.push("drag one of yours onto a lit Halali! exit");
      hint = ways.length ? `${ways.join("; ")}.` : null;
      if (hint) hint = hint[0].toUpperCase() + hint.slice(1);
    }
    fill(panel,
      v.side ? h("p", {}, `You play the ${v.side}.`) : null,
      h("table", { class: "scores" },
        h("tr", {}, h("th", {}, "side"), h("th", {}, "points"), h("th", {}, "tiles")),
        sideRow("humans"), sideRow("beasts")),
      h("p", { class: "small", "data-testid": "end-phase" }, v.phase === "end" || (left !== null && left !== undefined)
        ? `End phase: ${left} turn${left === 1 ? "" : "s"} left in all.`
        : `${faceDown} tile${faceDown === 1 ? "" : "s"} face down; the end phase starts when the last one is turned.`),
      v.options?.match ? h("p", { class: "small" }, `Match: game ${v.match_game} of 2`) : null,
      takenList("captured", v.captured), takenList("exited", v.exited),
      myTurn(current) ? h("div", { class: "buttons" }, wordButtons(["pass"], o.words, submit, { pass: "Pass" })) : null,
      hint ? h("p", { class: "hint" }, hint) : null);
  }

  return {
    update(state) {
      current = state;
      if (!myTurn(state)) selected = null;
      draw();
    },
    refused() {
      selected = null;
      if (current) draw();
    },
    destroy() {},
  };
}

function takenList(what, bySide) {
  if (!bySide) return null;
  const parts = Object.entries(bySide).filter(([, l]) => l.length)
    .map(([side, l]) => `${side}: ${l.map((t) => TILES[t[0]]?.name || t).join(", ")}`);
  return parts.length ? h("p", { class: "small" }, `${what} — ${parts.join("; ")}`) : null;
}
