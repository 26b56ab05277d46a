// Board modules, loaded on first use from the address /api/games gives for a game (`board`), so
// the page holds no list of games and three.js only comes with the board that needs it. A game
// without a board module, or whose module does not load, gets the generic board: the moves to
// choose from as buttons, a box to type one, the view as text. The board contract is shell.js's.

import { h, fill } from "../dom.js";
import { t } from "../i18n.js";

/** The `createBoard` of the module at `url` (null: the generic board). */
export async function loadBoard(url) {
  if (!url) return genericBoard;
  try {
    const mod = await import(url);
    if (typeof mod.createBoard === "function") return mod.createBoard;
    console.error(`board module ${url} has no createBoard`);
  } catch (err) {
    console.error(`board module ${url} failed to load`, err);
  }
  return genericBoard;
}

/** Any game: every legal move as a button, a box to type one, the view as JSON. */
export function genericBoard(ui) {
  const moves = h("div", { class: "move-buttons" });
  const input = h("input", { placeholder: t("page.boards.type_move"), "aria-label": t("page.boards.move") });
  const pre = h("pre", { class: "view-json" });
  const form = h("form", { class: "row", onsubmit: (ev) => {
    ev.preventDefault();
    if (input.value.trim()) ui.submit(input.value.trim());
    input.value = "";
  } }, input, h("button", { type: "submit" }, t("page.boards.play")));
  fill(ui.main, h("div", { class: "generic-board" }, moves, form, pre));
  return {
    gestures: false,
    draw() {
      fill(moves, ui.offer.entries.map((entry) => h("button", { type: "button",
        "data-move": entry.move, onclick: () => ui.submit(entry) }, entry.move)));
      form.hidden = !ui.mine;
      pre.textContent = JSON.stringify(ui.state.view, null, 1);
    },
  };
}
