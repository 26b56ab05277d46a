// Hotu Matua: the sea drawn from the board data in the view (field polygons, the number of each
// line as 1-4 dots on it, sails on the start fields, pearls), the ships, the rolled dice with the
// used ones greyed; click a ship, then a field it can reach; an end-turn button.
//
// The board file is portrait (north at the top); on a wide screen it is turned a quarter so that
// north is on the left and the map fills the width.

import { h, s, fill, svgRoot, points, fmt, dataOf } from "../dom.js";
import { myTurn, wordButtons } from "./index.js";

const PAD = 14;
export const SIDE_COLOURS = { north: "#c0392b", south: "#138a7d" };

/** Bounds of the board's polygons. */
function bounds(fields) {
  let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
  for (const f of fields) {
    for (const [x, y] of f.polygon) {
      minX = Math.min(minX, x); minY = Math.min(minY, y);
      maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    }
  }
  return { minX, minY, maxX, maxY };
}

/** Board geometry in drawing units: polygons, centres and each line's shared edge. */
export function geometry(board, landscape) {
  const b = bounds(board.fields);
  const w = b.maxX - b.minX;
  const hgt = b.maxY - b.minY;
  const T = landscape
    ? ([x, y]) => [PAD + (y - b.minY), PAD + (b.maxX - x)]
    : ([x, y]) => [PAD + (x - b.minX), PAD + (y - b.minY)];
  const fields = new Map();
  for (const f of board.fields) {
    const poly = f.polygon.map(T);
    fields.set(f.id, { id: f.id, poly, raw: f.polygon, centre: centroid(poly) });
  }
  const lines = board.lines.map((line) => {
    const [a, c] = line.fields;
    const pa = fields.get(a).raw.map((p) => p.join(","));
    const shared = fields.get(c).raw.filter((p) => pa.includes(p.join(","))).map(T);
    return { fields: [a, c], number: line.number, edge: shared.length === 2 ? shared : null };
  });
  return {
    width: (landscape ? hgt : w) + 2 * PAD, height: (landscape ? w : hgt) + 2 * PAD,
    fields, lines,
  };
}

function centroid(poly) {
  let a = 0; let cx = 0; let cy = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x0, y0] = poly[i];
    const [x1, y1] = poly[(i + 1) % poly.length];
    const cross = x0 * y1 - x1 * y0;
    a += cross; cx += (x0 + x1) * cross; cy += (y0 + y1) * cross;
  }
  if (Math.abs(a) < 1e-9) {
    const n = poly.length;
    return [poly.reduce((t, p) => t + p[0], 0) / n, poly.reduce((t, p) => t + p[1], 0) / n];
  }
  return [cx / (3 * a), cy / (3 * a)];
}

/** Dice shown in roll order, each marked used or not (the view lists the unused values). */
export function diceState(dice) {
  const left = new Map();
  for (const v of dice.unused || []) left.set(v, (left.get(v) || 0) + 1);
  return (dice.rolled || []).map((v) => {
    const n = left.get(v) || 0;
    if (n > 0) left.set(v, n - 1);
    return { value: v, used: n === 0 };
  });
}

/** The map as SVG. */
export function renderHotuMatua(view, { landscape = false, mine = false, selected = null } = {}) {
  const geo = geometry(view.board, landscape);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "hotu_matua", role: "img",
    "aria-label": "Hotu Matua map" });
  const steps = mine ? view.steps || [] : [];
  const targets = new Set(steps.filter((st) => st.ship === selected).map((st) => st.to));
  const hotLines = new Set(steps.filter((st) => !selected || st.ship === selected)
    .map((st) => [st.from, st.to].sort().join("|")));
  const startOf = new Map();
  for (const [side, ids] of Object.entries(view.board.start || {})) ids.forEach((id) => startOf.set(id, side));

  const fieldsLayer = s("g", { class: "fields" });
  let k = 0;
  for (const f of geo.fields.values()) {
    const side = startOf.get(f.id);
    const cls = `field${k++ % 2 ? " alt" : ""}${side ? ` start-${side}` : ""}${targets.has(f.id) ? " target" : ""}`;
    fieldsLayer.append(s("polygon", { points: points(f.poly), class: cls, "data-field": f.id }));
  }
  svg.append(fieldsLayer);

  const labels = s("g", { class: "labels" });
  for (const f of geo.fields.values()) {
    labels.append(s("text", { x: fmt(f.centre[0]), y: fmt(f.centre[1] + 25), class: "field-id" }, f.id));
  }
  svg.append(labels);

  const sails = s("g", { class: "sails" });
  for (const [id, side] of startOf) {
    const f = geo.fields.get(id);
    if (!f) continue;
    const [x, y] = f.centre;
    sails.append(s("path", { class: "sail", "data-sail": side, fill: SIDE_COLOURS[side],
      d: `M ${fmt(x + 14)} ${fmt(y - 22)} L ${fmt(x + 14)} ${fmt(y - 6)} L ${fmt(x + 26)} ${fmt(y - 8)} Z` }));
  }
  svg.append(sails);

  const dots = s("g", { class: "line-numbers" });
  for (const line of geo.lines) {
    if (!line.edge) continue;
    const [[x0, y0], [x1, y1]] = line.edge;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ux = (x1 - x0) / len;
    const uy = (y1 - y0) / len;
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    const hot = hotLines.has([...line.fields].sort().join("|"));
    const g = s("g", { "data-line": line.fields.join("-"), "data-number": line.number });
    for (let i = 0; i < line.number; i++) {
      const off = (i - (line.number - 1) / 2) * 6;
      g.append(s("circle", { cx: fmt(mx + ux * off), cy: fmt(my + uy * off), r: hot ? 2.6 : 2.1,
        class: `line-dot${hot ? " hot" : ""}` }));
    }
    dots.append(g);
  }
  svg.append(dots);

  const pearls = s("g", { class: "pearls" });
  for (const id of view.pearls_left || []) {
    const f = geo.fields.get(id);
    if (f) pearls.append(s("circle", { cx: fmt(f.centre[0]), cy: fmt(f.centre[1]), r: 10, class: "pearl",
      "data-pearl": id }));
  }
  svg.append(pearls);

  const trails = s("g", { class: "trails" });
  for (const [ship, crossings] of Object.entries(view.crossed || {})) {
    for (const c of crossings) {
      const [a, b] = c.split("-").map((id) => geo.fields.get(id));
      if (a && b) {
        trails.append(s("line", { x1: fmt(a.centre[0]), y1: fmt(a.centre[1]), x2: fmt(b.centre[0]),
          y2: fmt(b.centre[1]), class: "crossed", "data-ship": ship }));
      }
    }
  }
  svg.append(trails);

  const movable = new Set(steps.map((st) => st.ship));
  const ships = s("g", { class: "ships" });
  for (const ship of view.ships || []) {
    const f = geo.fields.get(ship.field);
    if (!f) continue;
    const [x, y] = f.centre;
    ships.append(s("g", {
      class: `ship ${ship.seat}${movable.has(ship.id) ? " movable" : ""}${selected === ship.id ? " selected" : ""}`,
      "data-ship": ship.id, "data-field": ship.field, transform: `translate(${fmt(x)},${fmt(y)})`,
    },
    s("path", { class: "hull", d: "M -21 -4 L 21 -4 L 14 11 L -14 11 Z" }),
    s("path", { class: "hull", d: "M -1 -4 L -1 -22 L 13 -7 Z", opacity: 0.85 }),
    s("text", { x: 0, y: 8 }, ship.id)));
  }
  svg.append(ships);
  return svg;
}

export function createBoard(host, { submit }) {
  const main = h("div", { class: "board-main" });
  const panel = h("div", { class: "board-panel" });
  fill(host, h("div", { class: "board-wrap" }, main, panel));
  let current = null;
  let selected = null;
  let landscape = null;

  const wide = () => main.clientWidth > 560;
  const resize = new ResizeObserver(() => {
    if (current && wide() !== landscape) draw();
  });
  resize.observe(main);

  main.addEventListener("click", (ev) => {
    if (!current || !myTurn(current)) return;
    const steps = current.view.steps || [];
    const ship = dataOf(ev.target, "ship");
    const field = dataOf(ev.target, "field");
    if (ship && steps.some((st) => st.ship === ship)) {
      selected = selected === ship ? null : ship;
      draw();
      return;
    }
    const step = steps.find((st) => st.ship === selected && st.to === field);
    if (step) {
      selected = null;
      submit(step.move);
      return;
    }
    if (selected) {
      selected = null;
      draw();
    }
  });

  function draw() {
    landscape = wide();
    const mine = myTurn(current);
    if (selected && !(current.view.steps || []).some((st) => st.ship === selected)) selected = null;
    fill(main, renderHotuMatua(current.view, { landscape, mine, selected }));
    drawPanel(mine);
  }

  function drawPanel(mine) {
    const v = current.view;
    const dice = diceState(v.dice || {});
    const owned = v.pearls_owned || {};
    const rows = current.seats.map((seat) => h("li", {},
      h("span", { class: "swatch", style: `background:${SIDE_COLOURS[seat.name] || "#888"}` }),
      ` ${seat.name}${seat.player ? ` (${seat.player})` : ""}: `,
      h("strong", { "data-pearls": seat.name }, String(owned[seat.name] ?? 0)), " pearl",
      (owned[seat.name] ?? 0) === 1 ? "" : "s"));
    let hint = null;
    if (mine) {
      hint = selected
        ? `Click a lit field for ${selected}, or another ship.`
        : "Click one of your lit ships, then a field it can reach; End turn when done.";
    }
    fill(panel,
      h("ul", { class: "legend" }, rows),
      h("p", { class: "small" }, `Turn ${v.turn + 1} of ${v.turn_limit}${v.to_move ? ` · ${v.to_move} to play` : ""}`),
      dice.length ? h("div", {}, h("div", { class: "small" }, "Dice rolled:"),
        h("div", { class: "dice", "data-testid": "dice" }, dice.map((d) =>
          h("span", { class: `die${d.used ? " used" : ""}`, "data-die": d.value,
            title: d.used ? "used" : "not used yet" }, String(d.value))))) : null,
      v.dice && v.dice.passing_on ? h("p", { class: "small" },
        `Unused dice now would give the opponent ${v.dice.passing_on} more.`) : null,
      mine ? h("div", { class: "buttons" }, wordButtons(["end"], current.legal_moves, submit,
        { end: "End turn" })) : null,
      hint ? h("p", { class: "hint" }, hint) : null,
      h("p", { class: "small muted" }, v.board?.name ? `Board: ${v.board.name}` : ""));
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
    destroy() {
      resize.disconnect();
    },
  };
}
