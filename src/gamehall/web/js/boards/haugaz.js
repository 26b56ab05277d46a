// Haugaz: the point grid with both diagonals through every cell, stacks drawn as piles of discs
// (bottom to top, owner on top) with their height; click a point to place, then drag a stack (or
// click it, then its target) to move; pass, cake setup and the side choice as buttons.

import { h, s, fill, svgRoot, fmt, dataOf, pointerGestures } from "../dom.js";
import { myTurn, wordButtons } from "./index.js";

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

/** What the legal move strings offer, sorted by kind. */
export function classify(legal) {
  const out = { place: new Set(), cake: new Map(), moves: new Map(), words: [] };
  for (const m of legal) {
    let match;
    if ((match = m.match(/^(black|white) ([a-z]\d+)$/))) out.cake.set(match[2], m);
    else if ((match = m.match(/^([a-z]\d+)-([a-z]\d+)$/))) {
      if (!out.moves.has(match[1])) out.moves.set(match[1], new Map());
      out.moves.get(match[1]).set(match[2], m);
    } else if (/^[a-z]\d+$/.test(m)) out.place.add(m);
    else out.words.push(m);
  }
  return out;
}

/** Points to mark as the last move: the latest turn's placement and move (or setup step). */
export function lastMarks(moves) {
  const marks = { points: [], path: null };
  if (!moves.length) return marks;
  const last = moves[moves.length - 1];
  const mv = last.move.match(/^([a-z]\d+)-([a-z]\d+)$/);
  if (mv) {
    marks.path = [mv[1], mv[2]];
    const before = moves[moves.length - 2];
    if (before && before.seat === last.seat && /^[a-z]\d+$/.test(before.move)) {
      marks.points.push(before.move);
    }
    return marks;
  }
  const pt = last.move.match(/([a-z]\d+)$/);
  if (pt) marks.points.push(pt[1]);
  return marks;
}

/** The board as SVG: lines, points (legal ones marked), stacks, last-move marks. */
export function renderHaugaz(view, { legal = [], mine = false, selected = null, moves = [] } = {}) {
  const geo = geometry(view.options.size);
  const offer = classify(mine ? legal : []);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "haugaz", role: "img",
    "aria-label": "Haugaz board" });
  svg.append(s("defs", {}, s("marker", { id: "haugaz-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
  s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#e0457b" }))));
  const lines = s("g", { class: "lines" });
  const n = geo.size;
  const end = M + (n - 1) * SP;
  for (let i = 0; i < n; i++) {
    const v = M + i * SP;
    lines.append(s("line", { x1: M, y1: v, x2: end, y2: v, class: "grid-line" }),
      s("line", { x1: v, y1: M, x2: v, y2: end, class: "grid-line" }));
  }
  for (let i = 0; i < n - 1; i++) {
    for (let j = 0; j < n - 1; j++) {
      const x = M + i * SP;
      const y = M + j * SP;
      lines.append(s("line", { x1: x, y1: y, x2: x + SP, y2: y + SP, class: "diag-line" }),
        s("line", { x1: x + SP, y1: y, x2: x, y2: y + SP, class: "diag-line" }));
    }
  }
  svg.append(lines);
  const coords = s("g", { class: "coords" });
  for (let i = 0; i < n; i++) {
    const v = M + i * SP;
    coords.append(s("text", { x: v, y: M - 32, class: "coord" }, column(i)),
      s("text", { x: v, y: end + 40, class: "coord" }, column(i)),
      s("text", { x: M - 36, y: M + (n - 1 - i) * SP + 4, class: "coord" }, String(i + 1)),
      s("text", { x: end + 36, y: M + (n - 1 - i) * SP + 4, class: "coord" }, String(i + 1)));
  }
  svg.append(coords);

  const targets = selected && offer.moves.has(selected) ? offer.moves.get(selected) : new Map();
  const pointsLayer = s("g", { class: "points" });
  for (const [name, p] of geo.pts) {
    const legalHere = offer.place.has(name) || offer.cake.has(name);
    const cls = `point${legalHere ? " legal" : ""}${targets.has(name) ? " target" : ""}`;
    pointsLayer.append(s("g", { class: cls, "data-point": name },
      s("circle", { cx: p.x, cy: p.y, r: SP * 0.45, class: "hit" }),
      s("circle", { cx: p.x, cy: p.y, r: legalHere || targets.has(name) ? 6 : 3, class: "spot" })));
  }
  svg.append(pointsLayer);

  const stacks = s("g", { class: "stacks" });
  for (const [name, pieces] of Object.entries(view.stacks || {})) {
    const p = geo.pts.get(name);
    if (!p) continue;
    stacks.append(stackShape(name, pieces, p.x, p.y, {
      movable: offer.moves.has(name), selected: selected === name,
      placed: view.placed === name,
    }));
  }
  svg.append(stacks);

  const marks = lastMarks(moves);
  const markLayer = s("g", { class: "marks" });
  for (const name of marks.points) {
    const p = geo.pts.get(name);
    if (p) markLayer.append(s("circle", { cx: p.x, cy: p.y, r: DISC + 6, class: "last-mark" }));
  }
  if (marks.path) {
    const [a, b] = marks.path.map((x) => geo.pts.get(x));
    if (a && b) {
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const k = (DISC + 4) / len;
      markLayer.append(s("line", { x1: fmt(a.x + (b.x - a.x) * k), y1: fmt(a.y + (b.y - a.y) * k),
        x2: fmt(b.x - (b.x - a.x) * k), y2: fmt(b.y - (b.y - a.y) * k), class: "last-path" }),
      s("circle", { cx: b.x, cy: b.y, r: DISC + 6, class: "last-mark" }));
    }
  }
  svg.append(markLayer);
  return svg;
}

function stackShape(name, pieces, x, y, { movable, selected, placed }) {
  const owner = pieces[pieces.length - 1];
  const g = s("g", {
    class: `stack ${owner}${movable ? " movable" : ""}${selected ? " selected" : ""}`,
    "data-stack": name, "data-height": pieces.length, "data-owner": owner,
    transform: `translate(${fmt(x)},${fmt(y)})`,
  });
  const shown = pieces.slice(-8);
  const lift = (shown.length - 1) * LAYER / 2;
  shown.forEach((colour, i) => {
    const top = i === shown.length - 1;
    g.append(s("circle", {
      cx: 0, cy: fmt(lift - i * LAYER), r: DISC, class: top ? `disc ${colour}` : "",
      fill: colour === "black" ? "#222" : "#fafafa", stroke: colour === "black" ? "#000" : "#666",
      "stroke-width": 1,
    }));
  });
  g.append(s("text", { x: 0, y: fmt(lift - (shown.length - 1) * LAYER + 5) }, String(pieces.length)));
  if (placed) {
    g.append(s("circle", { cx: 0, cy: fmt(lift - (shown.length - 1) * LAYER), r: DISC - 5,
      fill: "none", stroke: "#e0457b", "stroke-width": 1.5 }));
  }
  return g;
}

export function createBoard(host, { submit }) {
  const main = h("div", { class: "board-main" });
  const panel = h("div", { class: "board-panel" });
  fill(host, h("div", { class: "board-wrap" }, main, panel));
  let current = null;
  let selected = null;
  let svg = null;
  let ghost = null;

  function offer() {
    return classify(current && myTurn(current) ? current.legal_moves : []);
  }

  function draw() {
    const mine = myTurn(current);
    if (selected && !offer().moves.has(selected)) selected = null;
    svg = renderHaugaz(current.view, { legal: current.legal_moves, mine, selected,
      moves: current.moves });
    fill(main, svg);
    pointerGestures(svg, {
      source: (el) => {
        const name = dataOf(el, "stack");
        return name && offer().moves.has(name) ? name : null;
      },
      drop: (el) => dataOf(el, "point") || dataOf(el, "stack"),
      onDragStart: (name) => {
        selected = name;
        mark();
        const stack = svg.querySelector(`[data-stack="${name}"]`);
        if (stack) {
          ghost = stack.cloneNode(true);
          ghost.classList.add("ghost");
          svg.append(ghost);
        }
      },
      onDrag: (_name, pt) => {
        if (ghost) ghost.setAttribute("transform", `translate(${fmt(pt.x)},${fmt(pt.y)})`);
      },
      onDragEnd: () => {
        if (ghost) ghost.remove();
        ghost = null;
      },
      onDrop: (from, to) => tryMove(from, to),
      onClick: (el) => click(el),
    });
    drawPanel(mine);
  }

  function tryMove(from, to) {
    const targets = offer().moves.get(from);
    selected = null;
    if (targets && targets.has(to)) submit(targets.get(to));
    else mark();
  }

  function click(el) {
    if (!myTurn(current)) return;
    const o = offer();
    const stack = dataOf(el, "stack");
    const point = dataOf(el, "point") || stack;
    if (selected && point && o.moves.get(selected)?.has(point)) {
      tryMove(selected, point);
      return;
    }
    if (stack && o.moves.has(stack)) {
      selected = selected === stack ? null : stack;
      mark();
      return;
    }
    if (point && o.cake.has(point)) submit(o.cake.get(point));
    else if (point && o.place.has(point)) submit(point);
    else if (selected) {
      selected = null;
      mark();
    }
  }

  /** Show the selected stack and its targets on the drawn board (no redraw mid-gesture). */
  function mark() {
    for (const el of svg.querySelectorAll(".point.target")) {
      el.classList.remove("target");
      el.querySelector(".spot").setAttribute("r", el.classList.contains("legal") ? 6 : 3);
    }
    for (const el of svg.querySelectorAll(".stack.selected")) el.classList.remove("selected");
    if (!selected) return;
    svg.querySelector(`[data-stack="${selected}"]`)?.classList.add("selected");
    for (const to of offer().moves.get(selected)?.keys() || []) {
      const el = svg.querySelector(`[data-point="${to}"]`);
      if (!el) continue;
      el.classList.add("target");
      el.querySelector(".spot").setAttribute("r", 6);
    }
  }

  function drawPanel(mine) {
    const v = current.view;
    const o = offer();
    const colourOf = (seatIndex) => {
      if (v.black_seat === null || v.black_seat === undefined) return null;
      return seatIndex === v.black_seat ? "black" : "white";
    };
    const rows = current.seats.map((seat) => {
      const colour = colourOf(seat.index);
      return h("li", {}, colour ? h("span", { class: "swatch",
        style: `background:${colour === "black" ? "#222" : "#fafafa"}` }) : null,
      ` ${seat.name}${seat.player ? ` (${seat.player})` : ""}`
      + `${colour ? ` plays ${colour}` : " — side not chosen yet"}`);
    });
    const heights = ["black", "white"].map((c) => h("tr", {}, h("th", {}, c),
      h("td", { "data-heights": c }, (v.heights?.[c] || []).join(" ") || "—")));
    let hint = null;
    if (mine) {
      if (o.cake.size) hint = `Click a point to place the ${[...o.cake.values()][0].split(" ")[0]} cake stack.`;
      else if (o.place.size) hint = "Click an empty point to place a piece; then move a stack.";
      else if (o.moves.size) hint = "Drag one of your marked stacks to its target (or click it, then the target).";
      else if (o.words.some((w) => w.startsWith("play"))) hint = "Choose your side.";
    }
    fill(panel,
      h("ul", { class: "legend" }, rows),
      h("table", { class: "scores" }, h("tr", {}, h("th", {}, "side"), h("th", {}, "stack heights")),
        heights),
      v.phase !== "play" ? h("p", { class: "small" }, `Setup: ${phaseText(v.phase)}`) : null,
      v.passes ? h("p", { class: "small" }, "The last turn was a pass.") : null,
      mine ? h("div", { class: "buttons" }, wordButtons(["play black", "play white", "pass"],
        o.words, submit, { "play black": "Play black", "play white": "Play white", pass: "Pass" }))
        : null,
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

function phaseText(phase) {
  return {
    cake_black: "first places the black cake stack",
    cake_white: "first places the white cake stack",
    choose: "second chooses a side",
  }[phase] || phase;
}
