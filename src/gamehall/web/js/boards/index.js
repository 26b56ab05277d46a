// Board modules by game name, loaded on first use (three.js only comes with Hau La).
//
// A board module exports `createBoard(host, {submit, toast})`, returning
// `{update(state), destroy()}` where `state` is the server's state message (or a replayed one,
// with `legal_moves` empty) and `submit(notation)` plays a move. Games without a board module
// get the generic board: the legal moves as buttons and the view as text.

import { h, fill } from "../dom.js";

const MODULES = {
  hula: () => import("./hula.js"),
  haugaz: () => import("./haugaz.js"),
  halali: () => import("./halali.js"),
  hotu_matua: () => import("./hotu_matua.js"),
  hau_la: () => import("./hau_la.js"),
};

export async function loadBoard(game) {
  const load = MODULES[game];
  if (!load) return genericBoard;
  try {
    const mod = await load();
    return mod.createBoard;
  } catch (err) {
    console.error(`board for ${game} failed to load`, err);
    return genericBoard;
  }
}

/** Any game: the moves to choose from as buttons, a box to type one, the view as JSON. */
export function genericBoard(host, { submit }) {
  const moves = h("div", { class: "move-buttons" });
  const input = h("input", { placeholder: "type a move", "aria-label": "move" });
  const pre = h("pre", { class: "view-json" });
  const form = h("form", { class: "row", onsubmit: (ev) => {
    ev.preventDefault();
    if (input.value.trim()) submit(input.value.trim());
    input.value = "";
  } }, input, h("button", { type: "submit" }, "Play"));
  fill(host, h("div", { class: "generic-board" }, moves, form, pre));
  return {
    update(state) {
      fill(moves, (state.legal_moves || []).map((m) =>
        h("button", { type: "button", "data-move": m, onclick: () => submit(m) }, m)));
      form.hidden = !(state.legal_moves || []).length;
      pre.textContent = JSON.stringify(state.view, null, 1);
    },
    destroy() {},
  };
}

/** Common bits of a board's side panel: a row of move buttons for words like "pass" or "swap". */
export function wordButtons(words, legal, submit, labels = {}) {
  return words.filter((w) => legal.includes(w)).map((w) =>
    h("button", { type: "button", class: "primary", "data-move": w, onclick: () => submit(w) },
      labels[w] || w));
}

/** The seat the state says is this page's, and whether it may move now. */
export function myTurn(state) {
  return !state.replay && state.status === "playing" && state.seat !== null
    && state.to_move === state.seat && (state.legal_moves || []).length > 0;
}
