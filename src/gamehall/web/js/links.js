// Links the hall puts on every nickname it shows, and how a rating change is written.

import { h } from "./dom.js";

/** A nickname as a link to its profile (bots too: `mcts:hard bot`). */
export function playerLink(nickname, attrs = {}) {
  if (!nickname) return null;
  return h("a", { class: "player-link", href: `#/player/${encodeURIComponent(nickname)}`,
    "data-player": nickname, ...attrs }, nickname);
}

/** A signed rating change: "+12", "−7", "±0". */
export function delta(before, after) {
  const d = after - before;
  return d > 0 ? `+${d}` : (d < 0 ? `−${-d}` : "±0");
}
