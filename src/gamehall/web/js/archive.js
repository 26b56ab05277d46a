// The archive: every finished game, newest first, by game and/or player, a page at a time; each
// opens in its room's replay or review (with each player's accuracy once reviewed) or downloads
// as the record `gamehall replay` verifies.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { delta, playerLink } from "./links.js";
import { say, t } from "./i18n.js";

/** One finished game as a list item; `mine` (a profile's line) adds the player's side. */
export function gameLine(g, mine = null) {
  const names = g.players.map((p, i) => [i ? " · " : "",
    p ? playerLink(p, { botAccount: (g.bot_accounts || [])[i] }) : t("page.archive.empty")]);
  return h("li", { class: "game-line", "data-room": g.room },
    h("span", { class: "when small muted" }, (g.ended_at || "").slice(0, 16).replace("T", " ")),
    " ", h("strong", {}, g.title || g.game), " ", h("span", { class: "players" }, names),
    h("div", { class: "small" },
      mine && mine.result ? h("span", { class: `outcome-word ${mine.result}` }, t(`page.result.${mine.result}`)) : null,
      mine && mine.rating ? h("span", { class: "rating-change", "data-testid": "rating-change" },
        ` ${mine.rating.after} (${delta(mine.rating.before, mine.rating.after)})`) : null,
      g.outcome ? ` ${say(g, "outcome")}` : "",
      h("span", { class: "tag" }, g.rated ? t("page.lobby.rated") : t("page.lobby.casual")),
      g.accuracy ? h("span", { class: "accuracy small", "data-testid": "accuracy",
        title: t("page.archive.accuracy_title") },
      ` ${t("page.archive.accuracy", { list: g.accuracy.map((a) => (a === null ? "–" : `${Math.round(a)}%`)).join(" · ") })} `) : null,
      h("a", { class: "button", href: `#/room/${g.room}/replay`, "data-action": "open-replay" },
        t("page.lobby.replay")),
      h("a", { class: "button", href: `#/room/${g.room}/review`, "data-action": "open-review" },
        t("page.archive.review")),
      h("a", { class: "button", href: `/api/rooms/${encodeURIComponent(g.room)}/record`,
        download: `gamehall-${g.game}-${g.room}.json`, "data-action": "download" }, t("page.archive.record"))));
}

/** `query`: the part of the address after `#/archive?` (game=…&player=…). */
export function showArchive(root, query, ctx) {
  let alive = true;
  const params = new URLSearchParams(query || "");
  const game = params.get("game") || "";
  const player = params.get("player") || "";
  const list = h("ul", { class: "game-list", "data-testid": "archive" });
  const more = h("div", { class: "row" });
  const head = h("div", { class: "row spread" });
  fill(root, h("section", { class: "card archive" }, head, list, more));
  drawHead();
  page(null);

  async function drawHead() {
    let all = [];
    try {
      all = await games();
    } catch (_) { /* the filter then offers only "all games" */ }
    const pick = h("select", { "aria-label": t("page.lobby.game"), name: "game" },
      h("option", { value: "" }, t("page.archive.all_games")),
      all.map((g) => h("option", { value: g.name, selected: g.name === game }, g.title)));
    const who = h("input", { name: "player", value: player, placeholder: t("page.archive.any_player"),
      maxlength: 40, "aria-label": t("page.archive.player") });
    const go = (ev) => {
      ev.preventDefault();
      const q = new URLSearchParams();
      if (pick.value) q.set("game", pick.value);
      if (who.value.trim()) q.set("player", who.value.trim());
      location.hash = `#/archive?${q}`;
    };
    fill(head, h("h1", {}, t("page.archive.title")),
      h("form", { class: "row", onsubmit: go }, pick, who,
        h("button", { type: "submit" }, t("page.archive.show"))));
  }

  async function page(before) {
    const q = new URLSearchParams();
    if (game) q.set("game", game);
    if (player) q.set("player", player);
    if (before) q.set("before", before);
    let data;
    try {
      data = await api(`/api/archive?${q}`);
    } catch (err) {
      if (alive) fill(more, h("p", { class: "error" }, say(err)));
      return;
    }
    if (!alive) return;
    list.append(...data.games.map((g) => gameLine(g)));
    if (!before && !data.games.length) list.append(h("li", { class: "muted" }, t("page.archive.none")));
    fill(more, data.next ? h("button", { type: "button", "data-action": "older",
      onclick: () => page(data.next) }, t("page.archive.older")) : null);
  }

  return { destroy() { alive = false; } };
}
