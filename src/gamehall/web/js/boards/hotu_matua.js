// Hotu Matua: the sea drawn from the board data in the view (field polygons, the number of each
// line written on it, sails on the start fields, pearls), the ships, the rolled dice with the
// used ones greyed; click a ship (or drag it), then a field it can reach; an end-turn button.
//
// The board file is portrait (north at the top); on a wide screen it is turned a quarter so that
// north is on the left and the map fills the width, and then each end of the map is labelled
// with the side whose start fields lie there ("← north", "south →"): a turned map says so. The
// map is drawn once per turn of the screen; the ships keep their elements and move.

import { h, s, fill, svgRoot, points, fmt, keyed } from "../dom.js";
import { seatPlayer } from "../links.js";
import { t } from "../i18n.js";
import { seatWord } from "../words.js";

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

/** Key of the line between two fields, either way round. */
function lineKey(a, b) {
  return [a, b].sort().join("|");
}

/** What stays: fields, their numbers, sails, the lines' values; layers for pearls, trails and ships. */
function skeleton(board, landscape) {
  const geo = geometry(board, landscape);
  const svg = svgRoot(geo.width, geo.height, { "data-game": "hotu_matua", role: "img",
    "aria-label": t("page.hotu.map") });
  const startOf = new Map();
  for (const [side, ids] of Object.entries(board.start || {})) ids.forEach((id) => startOf.set(id, side));
  const fieldsLayer = s("g", { class: "fields" });
  const labels = s("g", { class: "labels" });
  let k = 0;
  for (const f of geo.fields.values()) {
    const side = startOf.get(f.id);
    fieldsLayer.append(s("polygon", { points: points(f.poly), "data-cell": f.id,
      class: `field${k++ % 2 ? " alt" : ""}${side ? ` start-${side}` : ""}` }));
    labels.append(s("text", { x: fmt(f.centre[0]), y: fmt(f.centre[1] + 25), class: "field-id" }, f.id));
  }
  const sails = s("g", { class: "sails" });
  for (const [id, side] of startOf) {
    const f = geo.fields.get(id);
    if (!f) continue;
    const [x, y] = f.centre;
    sails.append(s("path", { class: "sail", "data-sail": side, fill: SIDE_COLOURS[side],
      d: `M ${fmt(x + 14)} ${fmt(y - 22)} L ${fmt(x + 14)} ${fmt(y - 6)} L ${fmt(x + 26)} ${fmt(y - 8)} Z` }));
  }
  const dots = s("g", { class: "line-numbers" });
  const lines = new Map();
  for (const line of geo.lines) {
    if (!line.edge) continue;
    const [[x0, y0], [x1, y1]] = line.edge;
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    // the line's value as a number on a small disc (dots were hard to count)
    const g = s("g", { "data-line": line.fields.join("-"), "data-number": line.number },
      s("circle", { cx: fmt(mx), cy: fmt(my), r: 8, class: "line-badge" }),
      s("text", { x: fmt(mx), y: fmt(my + 4), class: "line-value" }, String(line.number)));
    lines.set(lineKey(...line.fields), g);
    dots.append(g);
  }
  const pearls = s("g", { class: "pearls" });
  const trails = s("g", { class: "trails" });
  const ships = s("g", { class: "ships" });
  svg.append(fieldsLayer, labels, sails, dots, pearls, trails, ships,
    landscape ? endLabels(geo, board.start || {}) : null);
  return { board, landscape, geo, svg, lines, pearls, trails, ships };
}

/** On a turned map, each side's name in the top corner of the end where its start fields lie,
 * with an arrow to it ("← north" at the left, "south →" at the right): which end is whose, from
 * the board's start fields, not from the side's name. Drawn over the sea with a light halo, so
 * the map keeps its height (the panel under it stays in view). */
function endLabels(geo, start) {
  const middle = geo.width / 2;
  return s("g", { class: "end-labels" }, Object.entries(start).map(([side, ids]) => {
    const xs = ids.map((id) => geo.fields.get(id)?.centre[0]).filter((x) => x !== undefined);
    if (!xs.length) return null;
    const left = xs.reduce((a, x) => a + x, 0) / xs.length < middle;
    return s("text", { class: "end-label", "data-side-label": side, fill: SIDE_COLOURS[side],
      x: fmt(left ? PAD + 4 : geo.width - PAD - 4), y: fmt(PAD + 16),
      "text-anchor": left ? "start" : "end" },
    t(left ? "page.hotu.end_left" : "page.hotu.end_right", { side: seatWord(side) }));
  }));
}

function shipShape(ship) {
  return s("g", { class: `ship ${ship.seat}`, "data-ship": ship.id },
    s("path", { class: "hull", d: "M -21 -4 L 21 -4 L 14 11 L -14 11 Z" }),
    s("path", { class: "hull", d: "M -1 -4 L -1 -22 L 13 -7 Z", opacity: 0.85 }),
    s("text", { x: 0, y: 8 }, ship.id));
}

/** Draw the view's pearls, trails and ships on the map, moving each ship's element. */
function drawView(map, view) {
  const { fields } = map.geo;
  fill(map.pearls, (view.pearls_left || []).map((id) => fields.get(id)).filter(Boolean)
    .map((f) => s("circle", { cx: fmt(f.centre[0]), cy: fmt(f.centre[1]), r: 10, class: "pearl",
      "data-pearl": f.id })));
  fill(map.trails, Object.entries(view.crossed || {}).map(([ship, crossings]) => crossings.map((c) => {
    const [a, b] = c.split("-").map((id) => fields.get(id));
    return a && b ? s("line", { x1: fmt(a.centre[0]), y1: fmt(a.centre[1]), x2: fmt(b.centre[0]),
      y2: fmt(b.centre[1]), class: "crossed", "data-ship": ship }) : null;
  })));
  const ships = (view.ships || []).filter((ship) => fields.has(ship.field));
  keyed(map.ships, ships, (ship) => ship.id, shipShape, (g, ship) => {
    const [x, y] = fields.get(ship.field).centre;
    g.setAttribute("data-at", ship.field);
    g.setAttribute("data-field", ship.field);
    g.setAttribute("transform", `translate(${fmt(x)},${fmt(y)})`);
  });
}

/** The game's part of the board (see shell.js): picking a ship and its field are the shell's. */
export function createBoard(ui) {
  let map = null;
  const wide = () => ui.main.clientWidth > 560;
  const resize = new ResizeObserver(() => {
    if (map && wide() !== map.landscape) ui.redraw();
  });
  resize.observe(ui.main);

  function panel() {
    const { state: current, mine } = ui;
    const v = current.view;
    const dice = diceState(v.dice || {});
    const over = v.over || current.status === "finished";  // by the rules, or resigned
    const owned = v.pearls_owned || {};
    const rows = current.seats.map((seat) => h("li", {},
      h("span", { class: "swatch", style: `background:${SIDE_COLOURS[seat.name] || "#888"}` }),
      ` ${seatWord(seat.name)}`, seatPlayer(seat), ": ",
      h("strong", { "data-pearls": seat.name }, String(owned[seat.name] ?? 0)), " ",
      t("page.hotu.pearls", { n: owned[seat.name] ?? 0 })));
    let hint = null;
    if (mine) {
      const ship = ui.selected !== null ? [...ui.offer.moves.get(ui.selected).values()][0].piece : null;
      hint = ship
        ? t("page.hotu.hint_field", { ship })
        : t("page.hotu.hint_ship");
    }
    return [
      h("ul", { class: "legend" }, rows),
      h("p", { class: "small", "data-testid": "turn-line" }, over
        ? t("page.hotu.over", { n: v.turn })
        : t("page.hotu.turn", { n: v.turn + 1, limit: v.turn_limit })
          + (v.to_move ? ` · ${t("page.hotu.to_play", { seat: seatWord(v.to_move) })}` : "")),
      dice.length ? h("div", {}, h("div", { class: "small" }, t("page.hotu.dice")),
        h("div", { class: "dice", "data-testid": "dice" }, dice.map((d) =>
          h("span", { class: `die${d.used ? " used" : ""}`, "data-die": d.value,
            title: d.used ? t("page.hotu.used") : t("page.hotu.unused") }, String(d.value))))) : null,
      !over && v.dice && v.dice.passing_on ? h("p", { class: "small" },
        t("page.hotu.passing_on", { n: v.dice.passing_on })) : null,
      ui.buttons({ end: t("page.hotu.end_turn") }),
      hint ? h("p", { class: "instructions" }, hint) : null,
      h("p", { class: "small muted" }, v.board?.name ? t("page.hotu.board", { name: v.board.name }) : ""),
    ];
  }

  return {
    layout: "hotu",
    draw() {
      const view = ui.state.view;
      const landscape = wide();
      const key = `${landscape}|${JSON.stringify(view.board)}`;
      if (!map || map.key !== key) {
        map = { ...skeleton(view.board, landscape), key };
        fill(ui.main, map.svg);
      }
      drawView(map, view);
    },
    panel,
    /** Each ship that moved sails along its steps, field by field. */
    animate(moves) {
      const { fields } = map.geo;
      const paths = new Map();
      for (const m of moves) {
        if (m.kind !== "step" || !fields.has(m.from) || !fields.has(m.to)) continue;
        if (!paths.has(m.piece)) paths.set(m.piece, [m.from]);
        paths.get(m.piece).push(m.to);
      }
      return [...paths].map(([ship, path]) => ({
        el: map.ships.querySelector(`[data-ship="${CSS.escape(ship)}"]`),
        duration: 300 * (path.length - 1) + 150,
        keyframes: path.map((id) => {
          const [x, y] = fields.get(id).centre;
          return { transform: `translate(${fmt(x)}px, ${fmt(y)}px)` };
        }),
      }));
    },
    /** The numbers of the lines the offered steps cross (the picked-up ship's, or every ship's). */
    mark() {
      const hot = new Set();
      for (const [from, targets] of ui.offer.moves) {
        if (ui.selected !== null && from !== ui.selected) continue;
        for (const to of targets.keys()) hot.add(lineKey(from, to));
      }
      for (const [key, g] of map.lines) {
        g.classList.toggle("hot", hot.has(key));
      }
    },
    destroy() {
      resize.disconnect();
    },
  };
}
