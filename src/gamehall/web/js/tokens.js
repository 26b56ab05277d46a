// One's own account, for programs: API tokens (listed, made with scopes and shown once,
// revoked) and the bot account (made for good before the account has played, and the games it
// plays). The routes are the bot API's (docs/bot-api.md); the page uses its browser's token.

import { h, fill } from "./dom.js";
import { say } from "./i18n.js";
import { api, games } from "./api.js";

const SCOPES = [
  ["bot:play", "play as a bot: streams, moves, chat, challenges"],
  ["read", "read only: the streams and the challenges"],
];

/** The account's cards for programs (an account with a password only): API tokens, and the
 * bot account. `data` is the profile (GET /api/players/{nickname}). */
export function programCards(data, ctx) {
  if (!data.account) return null;
  return [tokensCard(ctx), botCard(data, ctx)];
}

/** API tokens: the list (never the tokens themselves), a form for a new one, revoking. */
function tokensCard(ctx) {
  const list = h("div", { "data-testid": "token-list" }, h("p", { class: "muted" }, "Loading…"));
  const shown = h("div", { class: "new-token", "data-testid": "new-token", hidden: true });
  const card = h("section", { class: "card", "data-testid": "api-tokens" },
    h("h2", {}, "API tokens"),
    h("p", { class: "small muted" }, "A program (a bot, a research agent) plays through the "
      + "bot API with an API token of your account, sent as Authorization: Bearer TOKEN. "
      + "Revoking one stops it at once."),
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
    fill(list, h("p", { class: "muted" }, "No API tokens yet."));
    return;
  }
  const revoke = (t) => async () => {
    try {
      await api(`/api/account/tokens/${encodeURIComponent(t.id)}`, { method: "DELETE" });
      ctx.toast(`token "${t.description || t.id}" revoked`);
      drawTokens(list, ctx);
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  };
  fill(list, h("table", { class: "ratings tokens" },
    h("thead", {}, h("tr", {}, h("th", {}, "Description"), h("th", {}, "Scopes"),
      h("th", {}, "Created"), h("th", {}, "Last used"), h("th", {}, ""))),
    h("tbody", {}, data.tokens.map((t) => h("tr", { "data-token-id": t.id },
      h("td", {}, t.description || h("span", { class: "muted" }, "(no description)")),
      h("td", {}, t.scopes.join(", ")),
      h("td", { class: "small" }, moment(t.created_at)),
      h("td", { class: "small" }, moment(t.last_used_at)),
      h("td", {}, h("button", { type: "button", "data-action": "revoke-token",
        onclick: revoke(t) }, "Revoke")))))));
}

/** A new token: description and scopes; the token comes back once and is shown in `shown`. */
function tokenForm(ctx, shown, redraw) {
  const description = h("input", { name: "token-description", maxlength: 100,
    placeholder: "what it is for (my engine)", "aria-label": "token description" });
  const boxes = SCOPES.map(([scope, doc]) => h("label", { class: "small", title: doc },
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
  } }, description, boxes, h("button", { type: "submit", class: "primary" }, "Create token"));
}

/** The new token, shown this once, with a copy button (the server keeps only its hash). */
function showOnce(box, token) {
  const field = h("input", { type: "text", readonly: true, value: token, size: 40,
    name: "new-token", "aria-label": "the new token", onfocus: () => field.select() });
  const copy = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(token);
      copied.textContent = " copied";
    } catch (_) {
      copied.textContent = " selected: press Ctrl+C";
    }
  };
  const copied = h("span", { class: "small muted" });
  box.hidden = false;
  fill(box, h("p", { class: "small" }, h("strong", {}, "Copy this token now: "),
    "it is shown only once. Give it to your program; anyone holding it plays as you."),
  h("div", { class: "row" }, field,
    h("button", { type: "button", "data-action": "copy-token", onclick: copy }, "Copy"), copied));
}

/** The bot account: its games (editable), or (for an account that never played) the step
 * that makes it one, for good. */
function botCard(data, ctx) {
  const box = h("section", { class: "card", "data-testid": "bot-account" },
    h("h2", {}, "Bot account"), h("p", { class: "muted" }, "Loading…"));
  drawBot(box, data, ctx);
  return box;
}

async function drawBot(box, data, ctx) {
  let all;
  let mine;
  try {
    [all, mine] = await Promise.all([games(), api("/api/bot/account")]);
  } catch (err) {
    fill(box, h("h2", {}, "Bot account"), h("p", { class: "error" }, say(err)));
    return;
  }
  const picks = h("div", { class: "row game-picks" }, all.map((g) => h("label", {},
    h("input", { type: "checkbox", name: "bot-game", value: g.name,
      checked: !mine.bot_account || mine.games.includes(g.name) }), ` ${g.title}`)));
  const chosen = () => [...picks.querySelectorAll("input:checked")].map((i) => i.value);
  if (mine.bot_account) {
    fill(box, h("h2", {}, "Bot account"),
      h("p", { class: "small" }, "This is a bot account: it plays through the bot API and is "
        + "challenged from its profile. The games it accepts challenges for:"),
      picks, h("button", { type: "button", class: "primary", "data-action": "save-bot-games",
        onclick: () => saveGames(chosen(), ctx) }, "Save games"));
    return;
  }
  fill(box, h("h2", {}, "Bot account"), data.recent.length
    ? h("p", { class: "small muted" }, "This account has played, so it cannot become a bot "
      + "account: make a fresh account for your program.")
    : upgradeForm(picks, chosen, ctx));
}

/** Make the account a bot account: a clear warning, and a box to tick before the button. */
function upgradeForm(picks, chosen, ctx) {
  const sure = h("input", { type: "checkbox", name: "bot-for-good",
    onchange: () => { go.disabled = !sure.checked; } });
  const go = h("button", { type: "submit", class: "danger", disabled: true,
    "data-action": "make-bot" }, "Make this a bot account");
  return h("form", { class: "bot-upgrade", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/bot/account/upgrade", { method: "POST", body: { games: chosen() } });
      ctx.toast("this is a bot account now: create an API token for your program");
      ctx.refresh();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } },
  h("p", { class: "small warning" }, h("strong", {}, "For good: "), "a bot account never sits "
    + "at a table from the lobby again and can never be made a person's account again. It "
    + "plays only through the bot API, when challenged (or challenging), and is marked BOT "
    + "wherever its name appears. Only an account that has never played can become one."),
  h("p", { class: "small" }, "The games it plays:"), picks,
  h("label", { class: "small" }, sure, " I understand: this account becomes a bot for good"),
  h("div", { class: "row" }, go));
}

async function saveGames(names, ctx) {
  try {
    const done = await api("/api/bot/account", { method: "PUT", body: { games: names } });
    ctx.toast(`it plays ${done.games.join(", ")}`);
  } catch (err) {
    ctx.toast(say(err), "error");
  }
}

function moment(stamp) {
  return stamp ? stamp.slice(0, 16).replace("T", " ") : "—";
}
