// Hau La: the state's `hint` (one step's parts: a review's better move shown in a replay, or the
// Hint button's move) on the 3D board and in its panel. The board shell lights only elements
// carrying data-cell, data-at or data-move (here: the pieces' buttons); Hau La's holes and ghost
// tags live in a three.js scene and its previewed choices carry data-choice, so the board lights
// the rest itself: a hole or a ghost tag as a spot in the hint colour, a rotation or sides as
// that choice's ghost, and in the panel the matching button and a line saying the step in words.
// A spectator (a replay, a review) has no buttons, so the spot, the ghost and the line are drawn
// from the hint and the view alone; without WebGL the line and the buttons still show it.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The hint's colour in the 3D view (the 2D boards' hint glow). */
export const HINT_COLOUR = 0x1565c0;

const STEPS = new Set(["piece", "take", "hole", "rotation", "sides", "tag"]);

/** The state's hint when it is one of Hau La's steps (parts with their notation), else null. */
export function stepHint(state) {
  const hint = state && state.hint;
  return hint && STEPS.has(hint.kind) && typeof hint.move === "string" ? hint : null;
}

/** The ghost that shows the hinted step, where the view carries ghosts: that rotation's or
 * those sides' ghost, or the piece at the tag step (its tag is a spot). None where the player's
 * own preview already shows it: the previewed piece at the tag step, or the same choice. */
export function hintGhost(pending, hint, { preview, chosen, ghostFor }) {
  if (!hint || !pending || !["rotation", "sides", "tag"].includes(hint.kind)) return null;
  if (hint.kind === "tag") return preview ? null : ghostFor(pending, null);
  if (chosen && chosen.move === hint.move) return null;
  return ghostFor(pending, hint);
}

/** Where the hinted hole, or the hinted tag on `ghost` (the piece at the tag step), is in the
 * 3D view; null where it is not one of those or the view does not carry it. */
export function hintPlace(hint, view, ghost, findHole) {
  if (!hint) return null;
  if (hint.kind === "hole") return findHole(view, hint.cell)?.position || null;
  if (hint.kind !== "tag") return null;
  return ((ghost && ghost.tags) || []).find((t) => t.choice === hint.move)?.position || null;
}

/** The 3D view's spots with the hinted one lit at `position`: an offered spot takes the hint
 * colour; else (a spectator's view offers none) a spot of its own is added, which a click
 * leaves be, as it is no offered move. */
export function markHint(spots, hint, position) {
  if (!position) return spots;
  const spot = spots.find((x) => x.key === hint.move);
  if (spot) {
    Object.assign(spot, { colour: HINT_COLOUR, faint: false, hinted: true });
  } else {
    const tag = hint.kind === "tag";
    spots.push({ key: hint.move, position, label: tag
      ? t("page.hau_la.label.tag", { cell: hint.cell, face: hint.face }) : hint.cell,
      colour: HINT_COLOUR, radius: tag ? 0.3 : undefined, hinted: true });
  }
  return spots;
}

/** The panel's line naming the hinted step; `said` is the move list's words for it
 * (moveWords), `lit` whether the 3D view shows it too. */
export function hintLine(hint, said, lit) {
  if (!hint) return null;
  const words = said.replace(/^· /, "").replace(/^\((.*)\)$/, "$1").replace(/^takes /, "take ");
  return h("p", { class: "small hint-line", "data-testid": "haula-hint", "data-hint": hint.move },
    t("page.hau_la.suggested", { hole: hint.kind === "hole" ? "yes" : "no", words }),
    lit ? ` ${t("page.hau_la.suggested_lit")}` : "");
}

/** Light the panel's controls for the hinted step (the shell lights the pieces' buttons, which
 * carry data-move): a hole's button, a previewed choice's button, and the hint's line. */
export function lightHintPanel(panel, hint) {
  if (!hint) return;
  for (const el of panel.querySelectorAll("[data-hole], [data-choice], [data-hint]")) {
    const d = el.dataset;
    if ((hint.kind === "hole" && d.hole === hint.cell) || d.choice === hint.move
      || d.hint === hint.move) {
      el.classList.add("hint");
    }
  }
}
