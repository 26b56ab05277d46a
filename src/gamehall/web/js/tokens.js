// One's own account, for programs: API tokens (listed, made with scopes and shown once,
// revoked) and the bot account (made for good before the account has played, and the games it
// plays). The routes are the bot API's (docs/bot-api.md); the page uses its browser's token.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { say, t } from "./i18n.js";

const SCOPES = [["bot:play", "page.tokens.scope_play"], ["read", "page.tokens.scope_read"]];

/** The account's cards for programs (an account with a password only): API tokens, and the
 * bot account. `data` is the profile (GET /api/players/{nickname}). */
export function programCards(data, ctx) {
  if (!data.account) return null;
  return [tokensCard(ctx), botCard(data, ctx)];
}

/** API tokens: the list (never the tokens themselves), a form for a new one, revoking. */
function tokensCard(ctx) {
  const list = h("div", { "data-testid": "token-list" }, h("p", { class: "muted" }, t("page.loading")));
  const shown = h("div", { class: "new-token", "data-testid": "new-token", hidden: true });
  const card = h("section", { class: "card", "data-testid": "api-tokens" },
    h("h2", {}, t("page.tokens.title")),
    h("p", { class: "small muted" }, t("page.tokens.about")),
    list, tokenForm(ctx, shown, () => drawTokens(list, ctx)), shown);
  drawTokens(list, ctx);
  return card;
}

async function drawTokens(list, ctx) {
  let data;
  try {
    data = await api("/api/account/tokens");
  } catch (err) {
    fill(list, h("p", { class: "error" }, say(err)));
    return;
  }
  if (!data.tokens.length) {
    fill(list, h("p", { class: "muted" }, t("page.tokens.none")));
    return;
  }
  const revoke = (token) => async () => {
    try {
      await api(`/api/account/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" });
      ctx.toast(t("page.tokens.revoked", { token: token.description || token.id }));
      drawTokens(list, ctx);
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  };
  fill(list, h("table", { class: "ratings tokens" },
    h("thead", {}, h("tr", {}, h("th", {}, t("page.tokens.description")), h("th", {}, t("page.tokens.scopes")),
      h("th", {}, t("page.tokens.created")), h("th", {}, t("page.tokens.last_used")), h("th", {}, ""))),
    h("tbody", {}, data.tokens.map((token) => h("tr", { "data-token-id": token.id },
      h("td", {}, token.description || h("span", { class: "muted" }, t("page.tokens.no_description"))),
      h("td", {}, token.scopes.join(", ")),
      h("td", { class: "small" }, moment(token.created_at)),
      h("td", { class: "small" }, moment(token.last_used_at)),
      h("td", {}, h("button", { type: "button", "data-action": "revoke-token",
        onclick: revoke(token) }, t("page.tokens.revoke"))))))));
}

/** A new token: description and scopes; the token comes back once and is shown in `shown`. */
function tokenForm(ctx, shown, redraw) {
  const description = h("input", { name: "token-description", maxlength: 100,
    placeholder: t("page.tokens.placeholder"), "aria-label": t("page.tokens.description_label") });
  const boxes = SCOPES.map(([scope, doc]) => h("label", { class: "small", title: t(doc) },
    h("input", { type: "checkbox", name: "scope", value: scope, checked: scope === "bot:play" }),
    ` ${scope}`));
  return h("form", { class: "row", "data-testid": "token-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const scopes = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked)
      .map((i) => i.value);
    try {
      const made = await api("/api/account/tokens", { method: "POST",
        body: { description: description.value.trim(), scopes } });
      description.value = "";
      showOnce(shown, made.token);
      redraw();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } }, description, boxes, h("button", { type: "submit", class: "primary" }, t("page.tokens.create")));
}

/** The new token, shown this once, with a copy button (the server keeps only its hash). */
function showOnce(box, token) {
  const field = h("input", { type: "text", readonly: true, value: token, size: 40,
    name: "new-token", "aria-label": t("page.tokens.new_label"), onfocus: () => field.select() });
  const copy = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(token);
      copied.textContent = ` ${t("page.tokens.copied")}`;
    } catch (_) {
      copied.textContent = ` ${t("page.tokens.selected")}`;
    }
  };
  const copied = h("span", { class: "small muted" });
  box.hidden = false;
  fill(box, h("p", { class: "small" }, h("strong", {}, t("page.tokens.copy_now")), " ",
    t("page.tokens.shown_once")),
  h("div", { class: "row" }, field,
    h("button", { type: "button", "data-action": "copy-token", onclick: copy }, t("page.tokens.copy")), copied));
}

/** The bot account: its games (editable), or (for an account that never played) the step
 * that makes it one, for good. */
function botCard(data, ctx) {
  const box = h("section", { class: "card", "data-testid": "bot-account" },
    h("h2", {}, t("page.tokens.bot_account")), h("p", { class: "muted" }, t("page.loading")));
  drawBot(box, data, ctx);
  return box;
}

async function drawBot(box, data, ctx) {
  let all;
  let mine;
  try {
    [all, mine] = await Promise.all([games(), api("/api/bot/account")]);
  } catch (err) {
    fill(box, h("h2", {}, t("page.tokens.bot_account")), h("p", { class: "error" }, say(err)));
    return;
  }
  const picks = h("div", { class: "row game-picks" }, all.map((g) => h("label", {},
    h("input", { type: "checkbox", name: "bot-game", value: g.name,
      checked: !mine.bot_account || mine.games.includes(g.name) }), ` ${g.title}`)));
  const chosen = () => [...picks.querySelectorAll("input:checked")].map((i) => i.value);
  if (mine.bot_account) {
    fill(box, h("h2", {}, t("page.tokens.bot_account")),
      h("p", { class: "small" }, t("page.tokens.is_bot")),
      picks, h("button", { type: "button", class: "primary", "data-action": "save-bot-games",
        onclick: () => saveGames(chosen(), ctx) }, t("page.tokens.save_games")));
    return;
  }
  fill(box, h("h2", {}, t("page.tokens.bot_account")), data.recent.length
    ? h("p", { class: "small muted" }, t("page.tokens.has_played"))
    : upgradeForm(picks, chosen, ctx));
}

/** Make the account a bot account: a clear warning, and a box to tick before the button. */
function upgradeForm(picks, chosen, ctx) {
  const sure = h("input", { type: "checkbox", name: "bot-for-good",
    onchange: () => { go.disabled = !sure.checked; } });
  const go = h("button", { type: "submit", class: "danger", disabled: true,
    "data-action": "make-bot" }, t("page.tokens.make_bot"));
  return h("form", { class: "bot-upgrade", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/bot/account/upgrade", { method: "POST", body: { games: chosen() } });
      ctx.toast(t("page.tokens.made_bot"));
      ctx.refresh();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } },
  h("p", { class: "small warning" }, h("strong", {}, t("page.tokens.for_good")), " ",
    t("page.tokens.warning")),
  h("p", { class: "small" }, t("page.tokens.games_it_plays")), picks,
  h("label", { class: "small" }, sure, ` ${t("page.tokens.understand")}`),
  h("div", { class: "row" }, go));
}

async function saveGames(names, ctx) {
  try {
    const done = await api("/api/bot/account", { method: "PUT", body: { games: names } });
    ctx.toast(t("page.tokens.plays", { games: done.games.join(", ") }));
  } catch (err) {
    ctx.toast(say(err), "error");
  }
}

function moment(stamp) {
  return stamp ? stamp.slice(0, 16).replace("T", " ") : "—";
}
