// The page: a header with the nickname, and either the lobby (#/) or a room (#/room/ID).

import { h, fill } from "./dom.js";
import { games, identity, whoAmI } from "./api.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";

const app = document.getElementById("app");
const who = document.getElementById("who");
let current = null;  // the page shown: an object with destroy()

/** Show a short message at the bottom of the window (errors in words, notices). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}

export function renderWho(nickname) {
  if (!nickname) {
    fill(who, h("span", { class: "muted" }, "no nickname yet"));
    return;
  }
  fill(who,
    h("span", { class: "you", "data-testid": "me" }, nickname),
    " ",
    h("button", {
      class: "link", type: "button", title: "play under another nickname in this tab",
      onclick: () => {
        identity.forget();
        renderWho(null);
        location.hash = "#/";
        route();
      },
    }, "change"));
}

async function route() {
  if (current) current.destroy();
  current = null;
  const hash = location.hash || "#/";
  const room = hash.match(/^#\/room\/([A-Za-z0-9_-]+)(\/join)?/);
  const nickname = await whoAmI();
  renderWho(nickname);
  if (room) {
    current = showRoom(app, room[1], { nickname, toast, renderWho }, !!room[2]);
  } else {
    current = showLobby(app, { nickname, toast, renderWho });
  }
}

/** The header's line of games, in the order of the lobby's game menu (from /api/games). */
async function gamesLine() {
  try {
    document.getElementById("games-line").textContent = (await games()).map((g) => g.title)
      .join(" · ");
  } catch (_) { /* the lobby says the games could not be loaded */ }
}

window.addEventListener("hashchange", route);
route();
gamesLine();
