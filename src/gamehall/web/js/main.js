// The page: a header with the nickname, and the lobby (#/), a room (#/room/ID), a profile
// (#/player/NICK), a leaderboard (#/leaderboard/GAME), the archive (#/archive?game=&player=) or
// a game's rules (#/rules/GAME), the tournaments (#/tournaments) or one (#/tournament/ID).

import { h, fill } from "./dom.js";
import { games, identity, session } from "./api.js";
import { t } from "./i18n.js";
import { followAccount, languagePicker, startLanguage } from "./language.js";
import { showArchive } from "./archive.js";
import { watchIncoming } from "./challenge.js";
import { playerLink } from "./links.js";
import { showLobby } from "./lobby.js";
import { showLeaderboard, showProfile } from "./players.js";
import { showRoom } from "./room.js";
import { showRules } from "./rules.js";
import { remindTournaments, showTournament, showTournaments } from "./tournaments.js";

const app = document.getElementById("app");
const who = document.getElementById("who");
let current = null;  // the page shown: an object with destroy()
const incoming = watchIncoming();  // challenges to this player, above every page

/** Show a short message at the bottom of the window (errors in words, notices). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}

/** The header's links to the hall's other pages. On a laptop they stand in the header's line;
 * on a phone the line has no room for them beside a 20-character nickname, so they fold under
 * a menu button and open as a panel below the header (style.css). */
function nav() {
  const header = who.closest("header");
  header.classList.remove("menu-open");
  const links = h("span", { class: "nav-links", id: "nav-links" },
    h("a", { class: "nav", href: "#/leaderboard" }, t("page.header.leaderboards")), " ",
    h("a", { class: "nav", href: "#/archive" }, t("page.header.games")), " ",
    h("a", { class: "nav", href: "#/tournaments" }, t("page.header.tournaments")));
  const toggle = h("button", {
    class: "menu-toggle", type: "button", "aria-controls": "nav-links", "aria-expanded": "false",
    title: t("page.header.menu"), "aria-label": t("page.header.menu"),
    onclick: () => {
      const open = header.classList.toggle("menu-open");
      toggle.setAttribute("aria-expanded", String(open));
    },
  }, "☰");
  links.addEventListener("click", () => {
    header.classList.remove("menu-open");
    toggle.setAttribute("aria-expanded", "false");
  });
  return [toggle, links, " "];
}

export function renderWho(nickname) {
  if (!nickname) {
    fill(who, nav(), h("span", { class: "muted" }, t("page.header.no_nickname")));
    return;
  }
  fill(who, nav(),
    playerLink(nickname, { class: "you player-link", "data-testid": "me",
      title: t("page.header.profile_title") }),
    " ",
    h("button", {
      class: "link", type: "button", title: t("page.header.change_title"),
      onclick: () => {
        identity.forget();
        renderWho(null);
        location.hash = "#/";
        route();
      },
    }, t("page.header.change")));
}

let routing = 0;  // which call of route() is the latest: only it draws the page

async function route() {
  const mine = ++routing;
  if (current) current.destroy();
  current = null;
  document.title = "gamehall";
  const me = await session();
  // a newer address came while the session was read: that call draws its page (two drawn
  // would leave the first one's sockets and timers running, and show the wrong page)
  if (mine !== routing) return;
  const hash = location.hash || "#/";
  const nickname = me ? me.nickname : null;
  renderWho(nickname);
  followAccount(me);
  const ctx = { nickname, account: !!(me && me.account), toast, renderWho, refresh: route };
  incoming.set(ctx);
  const room = hash.match(/^#\/room\/([A-Za-z0-9_-]+)(\/join|\/replay|\/review)?/);
  const player = hash.match(/^#\/player\/([^/?]+)/);
  const board = hash.match(/^#\/leaderboard(?:\/([A-Za-z0-9_]+))?/);
  const archive = hash.match(/^#\/archive(?:\?(.*))?/);
  const rules = hash.match(/^#\/rules\/([A-Za-z0-9_]+)/);
  const tournament = hash.match(/^#\/tournament\/([A-Za-z0-9_-]+)/);
  if (tournament) {
    current = showTournament(app, tournament[1], ctx);
  } else if (hash.startsWith("#/tournaments")) {
    current = showTournaments(app, ctx);
  } else if (room) {
    current = showRoom(app, room[1], ctx, room[2] === "/join", room[2] === "/replay",
      room[2] === "/review");
  } else if (player) {
    current = showProfile(app, decodeURIComponent(player[1]), ctx);
  } else if (board) {
    current = showLeaderboard(app, board[1] || null, ctx);
  } else if (archive) {
    current = showArchive(app, archive[1] || "", ctx);
  } else if (rules) {
    current = showRules(app, rules[1], ctx);
  } else {
    const game = hash.match(/^#\/\?game=([A-Za-z0-9_]+)/);  // "Play …" on a rules page
    current = showLobby(app, ctx, game ? game[1] : null);
  }
}

/** The header's line of games, in the order of the lobby's game menu (from /api/games), each
 * a link to how to play it. */
async function gamesLine() {
  try {
    const list = await games();
    fill(document.getElementById("games-line"), list.map((g, i) => [i ? " · " : "",
      h("a", { href: `#/rules/${g.name}`, title: t("page.header.how_to_play", { game: g.title }) }, g.title)]));
  } catch (_) { /* the lobby says the games could not be loaded */ }
}

window.addEventListener("hashchange", route);
startLanguage().then(() => {
  document.querySelector("header.top").append(" ", languagePicker());
  route();
  gamesLine();
  remindTournaments();
});
