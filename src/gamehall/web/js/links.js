// Links the hall puts on every nickname it shows, and how a rating change is written. A bot
// account (a program playing through the bot API) is marked wherever its name appears, with a
// "BOT" tag before the name, as lichess does.

import { h } from "./dom.js";
import { playerWords, t } from "./i18n.js";

/** A nickname as a link to its profile (bots too: `mcts:hard bot`, read "Hard bot");
 * `attrs.botAccount` marks a bot account's name with the BOT tag (inside the link, so the two
 * never part). */
export function playerLink(nickname, attrs = {}) {
  if (!nickname) return null;
  const { botAccount, ...rest } = attrs;
  return h("a", { class: "player-link", href: `#/player/${encodeURIComponent(nickname)}`,
    "data-player": nickname, "data-bot-account": botAccount ? "true" : null, ...rest },
  botAccount ? [botTag(), " "] : null, playerWords(nickname));
}

/** The BOT tag itself (a profile's heading shows it beside the name). */
export function botTag() {
  return h("span", { class: "tag bot-tag", title: t("page.links.bot_title"),
    "data-testid": "bot-tag" }, "BOT");
}

/** A seat's player in a board's caption, " (name)" with the name linked to its profile as
 * everywhere else (the BOT tag inside for a bot account); nothing for an empty seat. */
export function seatPlayer(seat) {
  if (!seat || !seat.player) return "";
  return [" (", playerLink(seat.player, { botAccount: seat.bot_account }), ")"];
}

/** A seat's player as plain text (a tooltip): "BOT name" for a bot account. */
export function playerName(seat) {
  if (!seat || !seat.player) return "";
  return seat.bot_account ? `BOT ${seat.player}` : playerWords(seat.player);
}

/** Whether `nickname` sits at one of `seats` as a bot account (chat lines and rating changes
 * name a player without saying so: the seats do). */
export function seatedBot(seats, nickname) {
  return (seats || []).some((s) => s.player === nickname && s.bot_account);
}

/** A signed rating change: "+12", "−7", "±0". */
export function delta(before, after) {
  const d = after - before;
  return d > 0 ? `+${d}` : (d < 0 ? `−${-d}` : "±0");
}
