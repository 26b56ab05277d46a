// The board shell: what every game's board does the same way, written once — the set-up, the
// moves this page is offered (the state's structured `legal` entries: a board never reads
// notation), picking a piece up and putting it down (click, click, or drag), lighting the legal
// places and targets, a refused move, and the tear-down. A game's board module holds only what
// is particular to its game.
//
// What room.js uses, and all it uses (`mountBoard` returns it):
//   update(state)    draw a state message: a live one, or a replayed one (`replay: true`, no legal)
//   refused(error)   the server refused this page's move (its `error` message): drop what was
//                    picked up and draw the position again
//   cancel()         put down the piece picked up (Escape); true if one was
//   destroy()        tear down (listeners, observers, WebGL)
//   words            the game part's words(moves), or null: the move list writes notation
// plus whatever the board adds for tools (`tools`: Hau La's `screenOf`, used by the tests).
//
// A board module (the `board` URL of its game in /api/games) exports `createBoard(ui)`, called
// once, returning the game's part:
//   draw()          draw ui.state into ui.main, updating elements in place where it can
//   panel()         the side panel's nodes for ui.state (made anew for every state and when a
//                   piece is picked up or put down; those that look the same as the ones shown
//                   are kept, so a button pressed as a state arrives still takes the click)
//   mark()          optional: the board's own lighting, after the shell's (also when a piece is
//                   picked up or put down)
//   reset()         optional: forget the board's own half-made choice (a new position, a refusal)
//   target(entry)   optional: the place a moving entry goes to (default its `to`)
//   elsewhere(cell) optional: this page's turn, nothing picked up, and a click on a place that
//                   plays nothing: the board may say why (Haugaz: a cake point too near)
//   animate(moves)  optional: the motions that show `moves` (the other seats' moves this state
//                   added, already drawn): a list of {el, keyframes} for the Web Animations API
//                   (a tile slides, a stone drops, a stack grows), or of {play} (a function
//                   that runs its own motion: Hau La's 3D view). The shell plays them, unless
//                   the user asks for reduced motion (then nothing moves); it counts both on
//                   ui.main (data-animations-run, data-animations-skipped) for tools and tests.
//   gestures        false where the board takes the pointer itself (Hau La's 3D view)
//   layout          optional class of the board's wrap, for its CSS
//   words(moves)    optional: a turn's moves (entries of state.moves) in words for the move list,
//                   one per move, where the notation does not read as words (Hau La's steps)
//   destroy()       optional; tools: optional methods for tools
//
// Board elements speak to the shell through two attributes: data-cell="X" on a place (a cell,
// point, square or field; anything a piece may be put on) and data-at="X" on a piece standing
// on X. The shell sets the classes `legal` (a click there plays: a placement, a flip),
// `movable` (a piece that may move), `selected` (the piece picked up) and `target` (where the
// picked-up piece may go); and for a state carrying a `hint` (a move's parts: a review's better
// move shown in a replay, or the hint button's move) `hint-from` on the piece it moves and `hint`
// where it goes or acts, or on the panel button that plays it (pass, swap, ...).

import { h, fill, patch, fmt, dataOf, pointerGestures } from "../dom.js";

const LIT = ["legal", "movable", "selected", "target", "hint", "hint-from"];

/** Whether this page may move now in `state`. */
export function myTurn(state) {
  return !!state && !state.replay && state.status === "playing" && state.seat !== null
    && state.to_move === state.seat && (state.legal || []).length > 0;
}

/**
 * The legal entries this page may play, sorted by how they are played: `places` (cell -> the
 * entry a click on it plays), `moves` (from -> target -> entry), `words` (neither: buttons).
 */
export function offerOf(state, target = (entry) => entry.to) {
  const entries = myTurn(state) ? state.legal : [];
  const places = new Map();
  const moves = new Map();
  const words = [];
  for (const entry of entries) {
    if (entry.from !== undefined) {
      if (!moves.has(entry.from)) moves.set(entry.from, new Map());
      const to = target(entry);
      if (to !== undefined && to !== null) moves.get(entry.from).set(to, entry);
    } else if (entry.cell !== undefined) {
      places.set(entry.cell, entry);
    } else {
      words.push(entry);
    }
  }
  return { entries, places, moves, words };
}

/**
 * The moves of the latest turn, from the end of the move list: the last seat's moves in a row,
 * each with the chance outcomes that follow it (a flip and the tile it turned up; a placement
 * and the move after it).
 */
export function lastTurn(moves) {
  let i = moves.length - 1;
  while (i >= 0 && moves[i].seat === null) i--;
  if (i < 0) return [];
  const seat = moves[i].seat;
  let start = i;
  for (let k = i - 1; k >= 0; k--) {
    if (moves[k].seat === seat) start = k;
    else if (moves[k].seat !== null) break;
  }
  return moves.slice(start);
}

/** The moves `state` adds to `previous` (none on the first state, or after a jump back). */
function freshMoves(previous, state) {
  if (!previous || !!previous.replay !== !!state.replay) return [];
  const before = previous.moves || [];
  const now = state.moves || [];
  return now.length > before.length ? now.slice(before.length) : [];
}

/** Mount the board `createBoard` makes in `host`; returns the contract room.js uses. */
export function mountBoard(host, createBoard, { submit, toast }) {
  const main = h("div", { class: "board-main" });
  const panel = h("div", { class: "board-panel" });
  const wrap = h("div", { class: "board-wrap" }, main, panel);
  fill(host, wrap);
  const board = { main, panel, game: null, ui: null };
  const render = () => {
    board.game.draw();
    patch(panel, board.game.panel ? board.game.panel() : null);
    light(board);
  };
  board.ui = boardUi(board, { submit, toast, render });
  const game = board.game = createBoard(board.ui);
  const target = game.target || ((entry) => entry.to);
  if (game.layout) wrap.classList.add(game.layout);
  if (game.gestures !== false) wireGestures(board);
  return boardContract(board, target, render);
}

/** The `ui` a board module gets: what is drawn and offered, and the calls it may make. */
function boardUi(board, { submit, toast, render }) {
  const { main, panel } = board;
  const ui = {
    main, panel, toast,
    state: null,        // the state message drawn
    mine: false,        // whether this page may move now
    offer: offerOf(null),
    selected: null,     // the cell of the piece picked up
    turn: [],           // the latest turn's moves (entries of state.moves): for marks
    fresh: [],          // the moves this state added to the previous one: for animations
    /** Play a legal entry (or a notation the board got from the view). */
    submit(entry) {
      ui.selected = null;
      submit(typeof entry === "string" ? entry : entry.move);
    },
    /** Pick up the piece on `cell` (null: put it down), light its targets, say so in the panel. */
    select(cell) {
      ui.selected = cell;
      light(board);
      patch(panel, board.game.panel ? board.game.panel() : null);
    },
    /** Draw the current state again (after a change of the board's own). */
    redraw() {
      if (ui.state) render();
    },
    /** Buttons for the offered moves that are neither a place nor a piece (pass, swap, ...);
     * `labels` by kind: a text, or a function of the entry. */
    buttons(labels = {}) {
      const words = ui.offer.words;
      if (!words.length) return null;
      return h("div", { class: "buttons" }, words.map((entry) => {
        const label = labels[entry.kind];
        return h("button", { type: "button", class: "primary", "data-move": entry.move,
          onclick: () => ui.submit(entry) },
        (typeof label === "function" ? label(entry) : label) || entry.move);
      }));
    },
  };
  return ui;
}

/** What room.js holds of a mounted board: update, refused, destroy (and the board's tools). */
function boardContract(board, target, render) {
  const { game, ui } = board;
  return {
    update(state) {
      const previous = ui.state;
      ui.state = state;
      ui.mine = myTurn(state);
      ui.offer = offerOf(state, target);
      ui.turn = lastTurn(state.moves || []);
      ui.fresh = freshMoves(previous, state);
      if (!ui.mine) ui.selected = null;
      if (!previous || previous.version !== state.version || !!previous.replay !== !!state.replay) {
        if (game.reset) game.reset();
      }
      render();
      animateFresh(board);
    },
    /** Put down the piece picked up (Escape): true if there was one. */
    cancel() {
      if (ui.selected === null) return false;
      ui.select(null);
      return true;
    },
    refused() {
      ui.selected = null;
      if (game.reset) game.reset();
      ui.redraw();
    },
    destroy() {
      if (game.destroy) game.destroy();
    },
    words: game.words || null,
    ...(game.tools || {}),
  };
}

/** Show the other seats' moves this state added: the board's motions, or none at all when
 * the user asks for reduced motion. */
function animateFresh({ main, game, ui }) {
  if (!game.animate || !ui.state || ui.state.replay) return;
  const theirs = ui.fresh.filter((m) => m.seat !== null && m.seat !== ui.state.seat);
  if (!theirs.length) return;
  const motions = (game.animate(theirs) || []).filter((m) => m && (m.play || (m.el && m.el.animate)));
  if (!motions.length) return;
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const key = reduced ? "animationsSkipped" : "animationsRun";
  main.dataset[key] = String(Number(main.dataset[key] || 0) + motions.length);
  if (reduced) return;
  for (const { el, keyframes, duration, play } of motions) {
    if (play) play();
    else {
      // A moving element must not catch a click meant for what lies under its path.
      el.style.pointerEvents = "none";
      const motion = el.animate(keyframes, { duration: duration || 450, easing: "ease-out" });
      const done = () => { el.style.pointerEvents = ""; };
      motion.addEventListener("finish", done);
      motion.addEventListener("cancel", done);
    }
  }
}

/** Elements of `main` carrying data-`name`, by its value. */
function index(main, name) {
  const out = new Map();
  for (const el of main.querySelectorAll(`[data-${name}]`)) {
    const key = el.getAttribute(`data-${name}`);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(el);
  }
  return out;
}

/** Light the offered places and pieces, the piece picked up and its targets; then the board's
 * own marks. */
function light({ main, panel, game, ui }) {
  for (const el of [main, panel].flatMap((part) => [...part.querySelectorAll(
    LIT.map((c) => `.${c}`).join(","))])) {
    el.classList.remove(...LIT);
  }
  const o = ui.offer;
  if (ui.selected !== null && !o.moves.has(ui.selected)) ui.selected = null;
  const cells = index(main, "cell");
  const at = index(main, "at");
  const add = (map, key, cls) => (map.get(key) || []).forEach((el) => el.classList.add(cls));
  for (const cell of o.places.keys()) {
    add(cells, cell, "legal");
    add(at, cell, "legal");
  }
  for (const from of o.moves.keys()) add(at, from, "movable");
  if (ui.selected !== null) {
    add(at, ui.selected, "selected");
    for (const to of o.moves.get(ui.selected).keys()) {
      add(cells, to, "target");
      add(at, to, "target");
    }
  }
  lightHint(ui.state && ui.state.hint, cells, at, game.target, add);
  lightHintButton(ui.state && ui.state.hint, panel);
  if (game.mark) game.mark();
}

/** Light a hinted move (its parts): the piece it moves, and the place it goes to or acts on. */
function lightHint(hint, cells, at, target, add) {
  if (!hint) return;
  if (hint.from !== undefined) add(at, hint.from, "hint-from");
  const to = hint.from !== undefined ? (target ? target(hint) : hint.to) : hint.cell;
  if (to === undefined || to === null) return;
  add(cells, to, "hint");
  add(at, to, "hint");
}

/** A hinted move that is a panel button (pass, swap, ...: its `move` names it): light it. */
function lightHintButton(hint, panel) {
  if (!hint || hint.move === undefined) return;
  for (const el of panel.querySelectorAll("[data-move]")) {
    if (el.dataset.move === hint.move) el.classList.add("hint");
  }
}

/** The piece pressed at `el`: its own (data-at), else the one standing on the place pressed.
 * A piece in motion lets the pointer through to the place under it (animateFresh), and the
 * piece the other seat's move has just turned up or slid in is often the one to move next. */
function pieceAt(main, el) {
  const at = dataOf(el, "at");
  if (at !== null) return at;
  const cell = dataOf(el, "cell");
  return cell !== null && main.querySelector(`[data-at="${CSS.escape(cell)}"]`) ? cell : null;
}

/** A click on a piece or place: play the move it completes, or pick up or put down a piece;
 * a click on a place that plays nothing is the board's to explain (`elsewhere`), if it can. */
function click(ui, { at, cell }, game) {
  if (!ui.mine) return;
  const o = ui.offer;
  const entry = ui.selected !== null ? o.moves.get(ui.selected)?.get(cell) : null;
  if (entry) ui.submit(entry);
  else if (at !== null && o.moves.has(at)) ui.select(at === ui.selected ? null : at);
  else if (cell !== null && o.places.has(cell)) ui.submit(o.places.get(cell));
  else if (ui.selected !== null) ui.select(null);
  else if (cell !== null && game.elsewhere) game.elsewhere(cell);
}

function drop(ui, from, to) {
  const entry = ui.offer.moves.get(from)?.get(to);
  if (entry) ui.submit(entry);
  else ui.select(null);
}

/** A copy of the piece on `from` that follows the pointer while it is dragged (null: none). */
function startGhost(main, from, start) {
  const piece = main.querySelector(`[data-at="${CSS.escape(from)}"]`);
  const svg = piece && piece.ownerSVGElement;
  if (!svg) return null;
  const ghost = { el: piece.cloneNode(true), start, base: piece.getAttribute("transform") || "" };
  ghost.el.removeAttribute("data-at");
  ghost.el.classList.remove(...LIT);
  ghost.el.classList.add("ghost");
  svg.append(ghost.el);
  return ghost;
}

/** Clicks and drags on the board's pieces and places, as moves. */
function wireGestures({ main, ui, game }) {
  let ghost = null;
  pointerGestures(main, {
    source: (el) => {
      const at = pieceAt(main, el);
      return ui.mine && at !== null && ui.offer.moves.has(at) ? at : null;
    },
    // What a click on `el` means: the piece there and the place (data-cell, else the piece's
    // place). Read when the button goes down, so a redraw before it comes up is harmless.
    press: (el) => {
      const at = pieceAt(main, el);
      return { at, cell: dataOf(el, "cell") ?? at };
    },
    drop: (el) => dataOf(el, "cell") ?? dataOf(el, "at"),
    onDragStart: (from, start) => {
      ui.select(from);
      ghost = startGhost(main, from, start);
    },
    onDrag: (_from, pt) => {
      if (!ghost) return;
      const dx = fmt(pt.x - ghost.start.x);
      const dy = fmt(pt.y - ghost.start.y);
      ghost.el.setAttribute("transform", `translate(${dx},${dy}) ${ghost.base}`);
    },
    onDragEnd: () => {
      if (ghost) ghost.el.remove();
      ghost = null;
    },
    onDrop: (from, to) => drop(ui, from, to),
    onClick: (where) => click(ui, where, game),
  });
}
