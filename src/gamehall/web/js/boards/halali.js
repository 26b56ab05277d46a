// Halali!: 7x7 tiles; click a face-down tile to flip it, drag a face-up tile (or click it, then
// its target) to move or capture; in the end phase drag your tile onto the Halali! exit picture
// beside the board where an exit is legal. Face-down tiles are drawn as backs only: the view
// holds nothing else about them (their identity is drawn by chance when they are flipped). The
// squares and exits are drawn once; a tile keeps its element while it lies on its square.

import { h, s, fill, svgRoot, fmt, keyed } from "../dom.js";
import { playerLink, playerName } from "../links.js";
import { t } from "../i18n.js";
import { seatWord } from "../words.js";

const SQ = 64;
const PAD = 4;
const OFF = 78;               // room around the board for the exit pictures
const COORD_GAP = 20;         // the strip next to the board that holds the coordinates
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
const SIDES = ["humans", "beasts", "green", "tree"];
const RIFLE = { "^": [0, -1], ">": [1, 0], v: [0, 1], "<": [-1, 0] };
const RIFLE_WORDS = { "^": "up", ">": "right", v: "down", "<": "left" };

/** A tile's name (`bear`, …) in the page's language: the German game's Bär, Fuchs, … */
function tileWord(name) {
  return t(`page.halali.tile.${name}`);
}

/** A turn's moves (by their parts) as the move list writes them, in the page's language, one
 * entry per move: "turns over d1:" "hunter (rifle down)", "b6 to b5", "b6 takes b5",
 * "d2 out by the exit at d1", "passes"; a move without parts keeps its notation. */
export function moveWords(moves) {
  return moves.map((m) => {
    switch (m.kind) {
      case "flip": return t("page.halali.words.flip", { cell: m.cell });
      case "reveal": return revealWords(String(m.tile));
      case "move": return t("page.halali.words.move", { from: m.from, to: m.to });
      case "capture": return t("page.halali.words.capture", { from: m.from, to: m.to });
      case "exit": return t("page.halali.words.exit", { from: m.from, exit: m.exit });
      case "pass": return t("page.halali.words.pass");
      default: return String(m.move);
    }
  });
}

/** The tile a flip shows (its token: "Hv", "F"), in words: "hunter (rifle down)". */
function revealWords(tok) {
  const info = TILES[tok[0]];
  if (!info) return tok;
  const rifle = tok[0] === "H" && RIFLE[tok[1]] ? RIFLE_WORDS[tok[1]] : "none";
  return t("page.halali.words.reveal", { tile: tileWord(info.name), rifle });
}

/** The tiles' pictures, from the game's package (the file the server's SVG drawing reads too):
 * {size, pictures: kind -> [[element, attributes], ...]}; null if they could not be had. */
const PICTURES = await fetch("/api/games/halali/pictures").then((r) => (r.ok ? r.json() : null))
  .catch(() => null);

/** The picture of tile `kind` as an SVG group filling the square of `side` at (x, y); null
 * without pictures. */
export function picture(kind, x, y, side) {
  const shapes = PICTURES && PICTURES.pictures[kind];
  if (!shapes) return null;
  const scale = side / PICTURES.size;
  return s("g", { class: "picture", "data-picture": kind, "pointer-events": "none",
    transform: `translate(${fmt(x)},${fmt(y)}) scale(${fmt(scale * 1000) / 1000})` },
  shapes.map(([tag, attrs]) => s(tag, attrs)));
}

const CORNERS = new Map();
for (let r = 0; r < 7; r++) {
  for (let f = 0; f < 7; f++) CORNERS.set(`${FILES[f]}${r + 1}`, { x: OFF + f * SQ, y: OFF + (6 - r) * SQ });
}

/** Square name -> top-left corner in SVG units (rank 7 at the top). */
export function squareXY(name) {
  return CORNERS.get(name);
}

/** The board rows of the view as a map square -> token ("?" face down, "." empty). */
export function tokens(view) {
  const out = new Map();
  view.board.forEach((row, i) => {
    row.split(/\s+/).forEach((tok, f) => out.set(`${FILES[f]}${7 - i}`, tok));
  });
  return out;
}

/** A tile's face (or back) in `g`, drawn again only when its token changed. */
function drawTile(g, { square, tok }) {
  const { x, y } = squareXY(square);
  g.setAttribute("transform", `translate(${fmt(x)},${fmt(y)})`);
  if (g.token === tok) return;
  g.token = tok;
  g.setAttribute("data-at", square);
  if (tok === "?") g.removeAttribute("data-token");  // a face-down tile says nothing
  else g.setAttribute("data-token", tok);
  g.classList.remove("down", ...SIDES);
  g.removeAttribute("data-rifle");
  g.replaceChildren();
  const size = SQ - 2 * PAD;
  g.append(s("rect", { x: PAD, y: PAD, width: size, height: size, rx: 7, class: "face" }));
  if (tok === "?") {
    g.classList.add("down");
    g.append(s("path", { class: "back-mark",
      d: `M ${PAD + 10} ${PAD + 10} L ${SQ - PAD - 10} ${SQ - PAD - 10} M ${SQ - PAD - 10} ${PAD + 10} `
        + `L ${PAD + 10} ${SQ - PAD - 10}` }),
    s("rect", { x: PAD + 6, y: PAD + 6, width: size - 12, height: size - 12, rx: 4, class: "back-mark" }));
    return;
  }
  const info = TILES[tok[0]];
  const rifle = tok[0] === "H" ? RIFLE[tok[1]] : null;
  g.classList.add(info.side);
  g.append(s("title", {}, t("page.halali.tile_title", { tile: tileWord(info.name),
    rifle: rifle ? RIFLE_WORDS[tok[1]] : "none", points: info.points })));
  const art = picture(info.name, PAD + 7, PAD + 5, SQ - 2 * PAD - 14);
  if (art) {
    g.append(s("circle", { cx: SQ / 2, cy: SQ / 2 - 2, r: SQ / 2 - PAD - 5, class: "medallion" }), art);
  } else {
    g.append(s("text", { x: SQ / 2, y: SQ / 2 + 4, class: "glyph" }, tok[0]));
  }
  // the name below the picture (above it when a rifle points down, where its arrowhead is)
  const nameY = rifle && rifle[1] > 0 ? PAD + 8 : SQ - PAD - 2.5;
  g.append(s("text", { x: SQ / 2, y: nameY, class: "name" }, tileWord(info.name)),
    s("text", { x: SQ - PAD - 3, y: PAD + 8, class: "points", "text-anchor": "end" }, String(info.points)));
  if (rifle) {
    // an arrowhead on the edge of the tile the rifle points to
    const [dx, dy] = rifle;
    const reach = SQ / 2 - PAD - 1;
    const tip = [SQ / 2 + dx * reach, SQ / 2 + dy * reach];
    const base = [SQ / 2 + dx * (reach - 9), SQ / 2 + dy * (reach - 9)];
    const side = [-dy * 7, dx * 7];
    g.append(s("polygon", { class: "rifle", points: `${fmt(tip[0])},${fmt(tip[1])} `
      + `${fmt(base[0] + side[0])},${fmt(base[1] + side[1])} ${fmt(base[0] - side[0])},${fmt(base[1] - side[1])}` }));
    g.setAttribute("data-rifle", tok[1]);
  }
}

/** The place key of an exit, as the shell sees it (a move entry's target). */
function exitKey(edge) {
  return `exit:${edge}`;
}

/** An exit's picture beyond its edge square, past the strip where the coordinates are written
 * (COORD_GAP), so that it never covers a column's letter or a row's number. */
function exitShape(edge) {
  const { x, y } = squareXY(edge);
  const [dx, dy] = EXIT_DIR[edge];
  const depth = OFF - COORD_GAP - 8;
  const cx = x + SQ / 2 + dx * (SQ / 2 + COORD_GAP + depth / 2);
  const cy = y + SQ / 2 + dy * (SQ / 2 + COORD_GAP + depth / 2);
  const w = dx ? depth : SQ + 10;
  const hgt = dx ? SQ + 10 : depth;
  const ax = cx;
  const ay = cy + 10;
  const px = -dy;
  const py = dx;
  const arrow = [[ax + dx * 11, ay + dy * 11], [ax - dx * 7 + px * 10, ay - dy * 7 + py * 10],
    [ax - dx * 7 - px * 10, ay - dy * 7 - py * 10]].map(([x1, y1]) => `${fmt(x1)},${fmt(y1)}`).join(" ");
  return s("g", { class: "exit", "data-exit": edge, "data-cell": exitKey(edge) },
    s("rect", { x: fmt(cx - w / 2), y: fmt(cy - hgt / 2), width: fmt(w), height: fmt(hgt), rx: 10, class: "pic" }),
    s("text", { x: fmt(cx), y: fmt(cy - 10) }, "Halali!"),
    s("polygon", { points: arrow, class: "arrow" }));
}

/** What stays: squares, coordinates, exits; layers for the tiles and the marks. */
function skeleton() {
  const width = 2 * OFF + 7 * SQ;
  const svg = svgRoot(width, width, { "data-game": "halali", role: "img",
    "aria-label": t("page.halali.board") });
  const squares = s("g", { class: "squares" });
  for (let r = 7; r >= 1; r--) {
    for (const f of FILES) {
      const { x, y } = squareXY(`${f}${r}`);
      squares.append(s("rect", { x, y, width: SQ, height: SQ, class: "square", "data-cell": `${f}${r}` }));
    }
  }
  const coords = s("g", { class: "coords" });
  for (let i = 0; i < 7; i++) {
    coords.append(s("text", { x: OFF + i * SQ + SQ / 2, y: OFF + 7 * SQ + 14, class: "coord" }, FILES[i]),
      s("text", { x: OFF - 10, y: OFF + i * SQ + SQ / 2 + 4, class: "coord" }, String(7 - i)));
  }
  const exits = s("g", { class: "exits" }, EXITS.map(exitShape));
  const tiles = s("g", { class: "tiles" });
  const marks = s("g", { class: "marks" });
  svg.append(squares, tiles, coords, exits, marks);
  return { svg, tiles, exits, marks };
}

/** The latest turn's squares (a flip, or a move's two ends) and the locked tile. */
function drawMarks(board, view, turn) {
  const squares = new Set();
  for (const m of turn) for (const sq of [m.cell, m.from, m.to]) if (sq) squares.add(sq);
  const rect = (sq) => {
    const { x, y } = squareXY(sq);
    return s("rect", { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, rx: 8, class: "last-mark" });
  };
  let locked = null;
  if (view.locked) {
    const { x, y } = squareXY(view.locked);
    locked = s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ / 2 - 3, class: "locked" });
  }
  fill(board.marks, [...squares].map(rect), locked);
}

/** The game's part of the board (see shell.js): picking up, dropping and lighting are the
 * shell's; an exit is a place (data-cell "exit:d1") a tile can be put on. */
export function createBoard(ui) {
  let board = null;

  function panel() {
    const { state: current, offer: o } = ui;
    const v = current.view;
    const flips = [...o.places.values()].filter((e) => e.kind === "flip");
    const exits = [...o.moves.values()].some((to) => [...to.values()].some((e) => e.kind === "exit"));
    const moves = [...o.moves.values()].some((to) => [...to.values()].some((e) => e.kind !== "exit"));
    const sideRow = (side) => {
      const seatIndex = v.seats ? v.seats[side] : null;
      const seat = current.seats[seatIndex];
      const word = seatWord(side);
      return h("tr", { "data-side": side, title: seat && seat.player ? `${word}: ${playerName(seat)}` : word },
        h("th", {}, word, seat && seat.player ? h("div", { class: "small muted" },
          playerLink(seat.player, { botAccount: seat.bot_account })) : null),
        h("td", { "data-score": side }, String(v.scores?.[side] ?? 0)),
        h("td", {}, String(v.tiles_taken?.[side] ?? 0)));
    };
    const left = v.end_phase_turns_left;
    const faceDown = Object.values(v.unrevealed || {}).reduce((a, b) => a + b, 0);
    let hint = null;
    if (ui.mine) {
      const ways = [];
      if (flips.length) ways.push(t("page.halali.way_flip"));
      if (moves) ways.push(t("page.halali.way_move"));
      if (exits) ways.push(t("page.halali.way_exit"));
      hint = ways.length ? `${ways.join("; ")}.` : null;
      if (hint) hint = hint[0].toUpperCase() + hint.slice(1);
    }
    return [
      v.side ? h("p", {}, t("page.halali.you_play", { side: v.side })) : null,
      h("table", { class: "scores" },
        h("tr", {}, h("th", {}, t("page.haugaz.side")), h("th", {}, t("page.halali.points")),
          h("th", {}, t("page.halali.tiles"))),
        sideRow("humans"), sideRow("beasts")),
      h("p", { class: "small", "data-testid": "end-phase" }, v.phase === "end" || (left !== null && left !== undefined)
        ? t("page.halali.end_phase", { n: left })
        : t("page.halali.face_down", { n: faceDown })),
      v.options?.match ? h("p", { class: "small" }, t("page.halali.match", { n: v.match_game })) : null,
      takenList("captured", v.captured), takenList("exited", v.exited),
      ui.buttons({ pass: t("page.boards.pass") }),
      hint ? h("p", { class: "instructions" }, hint) : null,
    ];
  }

  return {
    target: (entry) => entry.to ?? (entry.exit ? exitKey(entry.exit) : null),
    words: moveWords,
    draw() {
      const view = ui.state.view;
      if (!board) {
        board = skeleton();
        fill(ui.main, board.svg);
      }
      const tiles = [...tokens(view)].filter(([, tok]) => tok !== ".")
        .map(([square, tok]) => ({ square, tok }));
      keyed(board.tiles, tiles, (x) => x.square, () => s("g", { class: "tile" }), drawTile);
      for (const el of board.exits.children) el.classList.toggle("open", view.phase === "end");
      drawMarks(board, view, ui.turn);
    },
    panel,
    /** A moved tile slides from its square; a flipped one turns over. */
    animate(moves) {
      const at = (sq) => board.tiles.querySelector(`[data-at="${CSS.escape(sq)}"]`);
      const px = (sq, extra = "") => {
        const { x, y } = squareXY(sq);
        return `translate(${fmt(x)}px, ${fmt(y)}px)${extra}`;
      };
      return moves.map((m) => {
        if (m.from && m.to && squareXY(m.from) && squareXY(m.to) && at(m.to)) {
          return { el: at(m.to), keyframes: [{ transform: px(m.from) }, { transform: px(m.to) }] };
        }
        if (m.kind === "flip" && m.cell && at(m.cell)) {
          const turn = (k) => ` translate(${SQ / 2}px, 0px) scaleX(${k}) translate(${-SQ / 2}px, 0px)`;
          return { el: at(m.cell), keyframes: [{ transform: px(m.cell, turn(0)) },
            { transform: px(m.cell, turn(1)) }] };
        }
        return null;
      });
    },
  };
}

function takenList(what, bySide) {
  if (!bySide) return null;
  const parts = Object.entries(bySide).filter(([, l]) => l.length)
    .map(([side, l]) => `${seatWord(side)}: ${l.map((tok) => (TILES[tok[0]] ? tileWord(TILES[tok[0]].name) : tok)).join(", ")}`);
  return parts.length ? h("p", { class: "small" }, `${t(`page.halali.${what}`)} — ${parts.join("; ")}`) : null;
}
