// The opening explorer on a game's rules page: for a start (the game's options, as the lobby
// offers them) the moves people played from a position in finished games, with counts and a
// win/draw/loss bar from the side to move (GET /api/games/GAME/explorer). A click on a move
// goes one deeper; the breadcrumb goes back. Everything comes from the server: the options
// (/api/games), the notation, whose side the figures are for.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { optionField } from "./lobby.js";
import { say, t } from "./i18n.js";
import { seatWord } from "./words.js";

/** The explorer's section for `game`; it loads itself. */
export function explorerSection(game) {
  const view = {
    game, moves: [], options: {}, players: "people", seq: 0,
    body: h("div", { class: "explorer-body", "data-testid": "explorer-body" },
      h("p", { class: "muted" }, t("page.explorer.loading"))),
    form: h("form", { class: "explorer-start row", onsubmit: (ev) => ev.preventDefault() }),
  };
  const section = h("section", { class: "explorer card", "data-testid": "explorer" },
    h("h2", {}, t("page.explorer.title")),
    h("p", { class: "small muted" }, t("page.explorer.about")),
    view.form, view.body);
  startForm(view);
  load(view);
  return section;
}

/** The start's options and whose games count; a change starts again from the start. */
async function startForm(view) {
  let spec = [];
  try {
    spec = (await games()).find((g) => g.name === view.game)?.options || [];
  } catch (_) { /* the explorer still shows the default start */ }
  const players = h("select", { id: "explorer-players", name: "explorer-players" },
    h("option", { value: "people", selected: true }, t("page.explorer.people")),
    h("option", { value: "all" }, t("page.explorer.all")));
  players.addEventListener("change", () => { view.players = players.value; restart(view); });
  const fields = spec.map((opt) => {
    const field = optionField({ ...opt, name: opt.name });
    const input = field.querySelector("[name]");
    input.addEventListener("change", () => {
      view.options[opt.name] = opt.type === "bool" ? input.checked
        : (opt.type === "int" ? Number(input.value) : input.value);
      restart(view);
    });
    return field;
  });
  fill(view.form, fields, h("div", { class: "option" },
    h("label", { for: "explorer-players" }, t("page.explorer.games_label")), players));
}

function restart(view) {
  view.moves = [];
  load(view);
}

async function load(view) {
  const seq = ++view.seq;
  const query = new URLSearchParams({ options: JSON.stringify(view.options),
    moves: view.moves.join(","), players: view.players });
  let node;
  try {
    node = await api(`/api/games/${encodeURIComponent(view.game)}/explorer?${query}`);
  } catch (err) {
    if (seq === view.seq) fill(view.body, h("p", { class: "error" }, say(err)));
    return;
  }
  if (seq === view.seq) fill(view.body, crumbs(view, node), table(view, node));
}

/** Start › a1 › b2: each step goes back to its position. */
function crumbs(view, node) {
  const to = (n) => h("button", { type: "button", class: "link", "data-depth": n,
    onclick: () => { view.moves = view.moves.slice(0, n); load(view); } },
  n === 0 ? t("page.explorer.start") : node.moves[n - 1].move);
  const out = [to(0)];
  node.moves.forEach((_, i) => out.push(" › ", to(i + 1)));
  return h("p", { class: "explorer-crumbs", "data-testid": "explorer-crumbs" }, out);
}

function table(view, node) {
  const side = seatWord(node.side_name);
  const who = node.chance ? t("page.explorer.chance_for", { side }) : side;
  const summary = h("p", { class: "small muted", "data-testid": "explorer-summary" },
    t("page.explorer.summary", { games: node.games }), " ",
    node.over ? t("page.explorer.over") : t("page.explorer.to_move", { who }));
  if (!node.next.length) return [summary, h("p", { class: "muted" }, t("page.explorer.no_more"))];
  const rank = node.next.some((r) => r.rank !== undefined);
  return [summary, h("div", { class: "table-wrap" }, h("table", { class: "explorer-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("page.explorer.move")), h("th", {}, t("page.profile.games")),
      h("th", {}, t("page.explorer.results_for", { side })), rank ? h("th", {}, t("page.explorer.avg_rank")) : null)),
    h("tbody", {}, node.next.map((r) => h("tr", {
      class: "explorer-move", "data-step": r.action, "data-move": r.move,
      tabindex: 0, role: "button", title: t("page.explorer.deeper"),
      onclick: () => { view.moves = [...view.moves, r.action]; load(view); },
      onkeydown: (ev) => { if (ev.key === "Enter") ev.currentTarget.click(); },
    }, h("td", { class: "notation" }, r.move), h("td", { class: "num" }, String(r.games)),
    h("td", {}, bar(r)), rank ? h("td", { class: "num" }, String(r.rank)) : null)))))];
}

/** Wins, draws and losses as one bar, each part as wide as its share. */
function bar(r) {
  const part = (n, cls) => n ? h("span", { class: `wdl ${cls}`, title: t(`page.explorer.wdl.${cls}`, { n }),
    style: `flex-grow: ${n}` }, `${Math.round((100 * n) / r.games)}%`) : null;
  return h("span", { class: "wdl-bar", "data-testid": "wdl",
    "aria-label": t("page.explorer.wdl_label", { wins: r.wins, draws: r.draws, losses: r.losses }) },
  part(r.wins, "win"), part(r.draws, "draw"), part(r.losses, "loss"));
}
