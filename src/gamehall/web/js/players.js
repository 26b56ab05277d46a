// Players: a link for every nickname the hall shows, the profile page (ratings per game, latest
// games, and for one's own profile the account: password, signing out) and the leaderboards.

import { h, fill } from "./dom.js";
import { api, games, setPassword, signOut } from "./api.js";
import { gameLine } from "./archive.js";
import { challengeCard } from "./challenge.js";
import { botTag, playerLink } from "./links.js";
import { programCards } from "./tokens.js";
import { playerWords, say, t } from "./i18n.js";

export function showProfile(root, nickname, ctx) {
  let alive = true;
  const box = h("div", { class: "profile", "data-testid": "profile" },
    h("p", { class: "muted" }, t("page.loading")));
  fill(root, box);
  load();

  async function load() {
    let data;
    let titles = {};
    try {
      data = await api(`/api/players/${encodeURIComponent(nickname)}`);
      titles = Object.fromEntries((await games()).map((g) => [g.name, g.title]));
    } catch (err) {
      if (alive) fill(box, h("p", { class: "error" }, say(err)));
      return;
    }
    if (!alive) return;
    const mine = ctx.nickname && ctx.nickname.toLowerCase() === data.nickname.toLowerCase();
    const kind = data.bot ? t("page.profile.kind_bot", { level: data.bot })
      : t(data.bot_account ? "page.profile.kind_program" : (data.account ? "page.profile.kind_account" : "page.profile.kind_guest"));
    const ratings = Object.entries(data.ratings);
    fill(box,
      h("section", { class: "card" },
        h("h1", {}, data.bot_account ? [botTag(), " "] : null,
          h("span", { "data-testid": "profile-name", title: data.nickname }, playerWords(data.nickname))),
        h("p", { class: "muted" }, t("page.profile.since", { kind, day: day(data.since) })),
        ratings.length
          ? h("table", { class: "ratings", "data-testid": "ratings" },
            h("thead", {}, h("tr", {}, h("th", {}, t("page.lobby.col_game")), h("th", {}, t("page.profile.rating")),
              h("th", {}, t("page.profile.games")), h("th", {}, ""))),
            h("tbody", {}, ratings.map(([game, r]) => h("tr", { "data-game": game },
              h("td", {}, h("a", { href: `#/leaderboard/${game}` }, titles[game] || game)),
              h("td", { class: "rating", "data-rating": r.rating },
                `${r.rating}`, h("span", { class: "muted small" }, ` ±${r.deviation}`)),
              h("td", {}, String(r.games)),
              h("td", { class: "small muted" }, r.provisional ? t("page.profile.provisional") : "")))))
          : h("p", { class: "muted" }, t("page.profile.no_rated"))),
      mine ? null : challengeCard(data, ctx, () => alive),
      mine && !data.bot ? accountCard(data, ctx) : null,
      mine && !data.bot ? programCards(data, ctx) : null,
      data.tournaments && data.tournaments.length ? h("section", { class: "card" },
        h("h2", {}, t("page.header.tournaments")),
        h("ul", { class: "game-list", "data-testid": "profile-tournaments" }, data.tournaments.map((x) =>
          h("li", {}, h("a", { href: `#/tournament/${x.id}` }, x.name),
            h("span", { class: "muted small" }, " · ", titles[x.game] || x.game, " · ",
              x.place ? t("page.tournament.place", { place: x.place }) : t(`page.tournament.status.${x.status}`)))))) : null,
      h("section", { class: "card" },
        h("div", { class: "row spread" }, h("h2", {}, t("page.profile.latest")),
          h("a", { href: `#/archive?player=${encodeURIComponent(data.nickname)}` }, t("page.archive.all_games"))),
        data.recent.length
          ? h("ul", { class: "game-list", "data-testid": "recent" },
            data.recent.map((g) => gameLine({ ...g, title: titles[g.game] || g.game }, g)))
          : h("p", { class: "muted" }, t("page.profile.no_finished"))));
  }

  return { destroy() { alive = false; } };
}

/** One's own account: protect the nickname with a password, change it, sign out. */
function accountCard(data, ctx) {
  const password = h("input", { type: "password", name: "password", autocomplete: "new-password",
    minlength: 8, maxlength: 200, required: true, "aria-label": t("page.account.new_password"),
    placeholder: data.account ? t("page.account.new_password") : t("page.account.password_rule") });
  const old = h("input", { type: "password", name: "old_password",
    autocomplete: "current-password", maxlength: 200, required: true,
    "aria-label": t("page.account.current_password"), placeholder: t("page.account.current_password") });
  const form = h("form", { class: "row account-form", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await setPassword(password.value, data.account ? old.value : null);
      ctx.toast(data.account ? t("page.account.changed")
        : t("page.account.protected"));
      ctx.refresh();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } },
  data.account ? old : null, password,
  h("button", { type: "submit", class: "primary" },
    data.account ? t("page.account.change") : t("page.account.set")));
  const out = (everywhere) => async () => {
    try {
      await signOut(everywhere);
      location.hash = "#/";
      ctx.refresh();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  };
  return h("section", { class: "card", "data-testid": "account" },
    h("h2", {}, t("page.account.title")),
    h("p", { class: "small muted" }, data.account
      ? t("page.account.signed_in")
      : t("page.account.guest")),
    form,
    data.account ? h("div", { class: "row" },
      h("button", { type: "button", "data-action": "sign-out", onclick: out(false) }, t("page.account.sign_out")),
      h("button", { type: "button", "data-action": "sign-out-all", onclick: out(true) },
        t("page.account.sign_out_all"))) : null);
}

export function showLeaderboard(root, game, ctx) {
  let alive = true;
  const box = h("div", { class: "leaderboard", "data-testid": "leaderboard" });
  fill(root, box);
  draw(0);

  async function draw(offset) {
    let list;
    let data = null;
    try {
      list = await games();
      const name = game || list[0].name;
      data = await api(`/api/leaderboard/${encodeURIComponent(name)}?offset=${offset}`);
    } catch (err) {
      if (alive) fill(box, h("p", { class: "error" }, say(err)));
      return;
    }
    if (!alive) return;
    const pick = h("select", { "aria-label": t("page.lobby.game"), onchange: () => {
      location.hash = `#/leaderboard/${pick.value}`;
    } }, list.map((g) => h("option", { value: g.name, selected: g.name === data.game }, g.title)));
    fill(box, h("section", { class: "card" },
      h("div", { class: "row spread" }, h("h1", {}, t("page.board.title", { game: data.title })), pick),
      h("p", { class: "small muted" }, t("page.board.order")),
      data.players.length
        ? h("table", { class: "ratings" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("page.profile.player")),
            h("th", {}, t("page.profile.rating")), h("th", {}, t("page.profile.games")))),
          h("tbody", {}, data.players.map((p) => h("tr", { "data-player": p.nickname },
            h("td", {}, String(p.rank)),
            h("td", {}, playerLink(p.nickname, { botAccount: p.bot_account }), p.bot ? h("span", { class: "tag" }, t("page.board.bot")) : null),
            h("td", { class: "rating", "data-rating": p.rating }, `${p.rating}`,
              h("span", { class: "muted small" }, ` ±${p.deviation}`)),
            h("td", {}, String(p.games))))))
        : h("p", { class: "muted" }, t("page.board.nobody")),
      h("div", { class: "row" },
        offset > 0 ? h("button", { type: "button", onclick: () => draw(Math.max(0, offset - 50)) },
          t("page.board.better")) : null,
        data.next_offset !== null ? h("button", { type: "button",
          onclick: () => draw(data.next_offset) }, t("page.board.more")) : null)));
  }

  return { destroy() { alive = false; } };
}

function day(stamp) {
  return stamp ? stamp.slice(0, 10) : "?";
}
