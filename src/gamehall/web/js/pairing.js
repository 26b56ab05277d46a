// Players find each other in the lobby (issue 44): the quick-pairing pools as tiles (one click
// joins; how many wait; a waiting state with Cancel; on pairing the page goes to the room) and
// the open challenges (seeks: a list with Accept, and a form to post one). Every pool and seek
// comes from the server's lobby feed (lobby_feed.js), never from a poll; a pairing comes on the
// same socket (`paired`), and a seek of one's own that is taken names its room in its line.

import { h, fill } from "./dom.js";
import { api } from "./api.js";
import { say, t } from "./i18n.js";
import { clockField, optionField, optionWords, readOptions } from "./lobby.js";
import { playerLink } from "./links.js";

/** The pools' and seeks' cards of `lobby` (its nickname, ctx, specs) and what they hold. */
export function pairingParts(lobby) {
  const pairing = {
    lobby,
    pools: new Map(),  // pool id -> line
    seeks: new Map(),  // seek id -> line
    entry: null,  // {id, pool} while this page waits in a pool
    posted: new Set(),  // the seeks this page posted: followed to their room when taken
    poolsBox: h("section", { class: "card pools", "aria-label": t("page.pairing.pools_label") }),
    seeksBox: h("section", { class: "card seeks", "aria-label": t("page.pairing.seeks_label") }),
    seekList: h("ul", { class: "seek-list" }),
    formBox: h("div", { class: "seek-form-box" }),
  };
  fill(pairing.seeksBox, h("h2", {}, t("page.pairing.seeks")), pairing.seekList,
    h("p", { class: "muted small empty seeks-empty" }, t("page.pairing.no_seeks")),
    h("details", { class: "post-seek" }, h("summary", {}, t("page.pairing.post_seek")),
      pairing.formBox));
  return pairing;
}

/** The feed's news: draw the tiles and the seeks; follow a seek of ours that was taken. */
export function pairingChanged(pairing, sections) {
  pairing.pools = sections.pools;
  pairing.seeks = sections.seeks;
  drawPools(pairing);
  drawSeeks(pairing);
  for (const id of pairing.posted) {
    const seek = pairing.seeks.get(id);
    if (seek && seek.room) {
      pairing.posted.delete(id);
      goTo(seek.room);
    }
  }
}

/** A pairing of ours (the socket's `paired`): to the room. */
export function paired(pairing, msg) {
  if (pairing.entry && msg.entry === pairing.entry.id) {
    pairing.entry = null;
    goTo(msg.room);
  }
}

/** The socket opened again (a `paired` may have been missed meanwhile): ask about our entry
 * once. */
export async function checkEntry(pairing) {
  const entry = pairing.entry;
  if (!entry) return;
  try {
    const now = await api(`/api/pools/entries/${encodeURIComponent(entry.id)}`);
    if (now.status === "paired" && now.room) paired(pairing, { entry: entry.id, room: now.room });
    else if (now.status === "cancelled" && pairing.entry === entry) {
      pairing.entry = null;
      drawPools(pairing);
    }
  } catch (_) { /* asked again at the next reconnection */ }
}

function goTo(room) {
  location.hash = `#/room/${room}`;
}

function gameTitle(pairing, name) {
  return (pairing.lobby.specs || []).find((g) => g.name === name)?.title || name;
}

function drawPools(pairing) {
  const tiles = [...pairing.pools.values()].map((pool) => poolTile(pairing, pool));
  fill(pairing.poolsBox, h("h2", {}, t("page.pairing.pools")),
    h("p", { class: "muted small" }, t("page.pairing.pools_doc")),
    h("div", { class: "pool-tiles" }, tiles));
}

function poolTile(pairing, pool) {
  const waiting = pairing.entry?.pool === pool.id;
  const about = [t("page.lobby.clock_line", { control: pool.clock }),
    t("page.pairing.players", { count: pool.seats }),
    pool.rated ? t("page.lobby.rated") : t("page.lobby.casual")].join(" · ");
  const count = h("span", { class: "pool-waiting", "data-testid": "pool-waiting" },
    t("page.pairing.waiting", { count: pool.waiting }));
  if (waiting) {
    return h("div", { class: "pool-tile waiting", "data-pool": pool.id },
      h("strong", {}, gameTitle(pairing, pool.game)), h("span", { class: "muted small" }, about),
      h("span", { class: "pool-state", role: "status" }, t("page.pairing.looking")), count,
      h("button", { type: "button", class: "pool-cancel", onclick: () => leavePool(pairing) },
        t("page.pairing.cancel")));
  }
  return h("button", { type: "button", class: "pool-tile", "data-pool": pool.id,
    disabled: !!pairing.entry, onclick: () => joinPool(pairing, pool) },
  h("strong", {}, gameTitle(pairing, pool.game)), h("span", { class: "muted small" }, about), count);
}

async function joinPool(pairing, pool) {
  const { lobby } = pairing;
  if (!lobby.nickname) {
    lobby.ctx.toast(t("page.lobby.nickname_first"), "error");
    return;
  }
  try {
    const entry = await api(`/api/pools/${encodeURIComponent(pool.id)}/join`, { method: "POST" });
    pairing.entry = { id: entry.id, pool: pool.id };
    if (entry.status === "paired" && entry.room) goTo(entry.room);
  } catch (err) {
    if (err.code === "already_waiting" && err.args?.entry) {
      // waiting from before (this page was loaded again): the tile shows it, with Cancel
      pairing.entry = { id: err.args.entry, pool: err.args.pool };
    } else {
      lobby.ctx.toast(say(err), "error");
    }
  }
  drawPools(pairing);
}

async function leavePool(pairing) {
  const entry = pairing.entry;
  if (!entry) return;
  try {
    const now = await api(`/api/pools/entries/${encodeURIComponent(entry.id)}`, { method: "DELETE" });
    if (now.status === "paired" && now.room) {
      goTo(now.room);
      return;
    }
  } catch (err) {
    pairing.lobby.ctx.toast(say(err), "error");
  }
  if (pairing.entry === entry) pairing.entry = null;
  drawPools(pairing);
}

function drawSeeks(pairing) {
  const open = [...pairing.seeks.values()].reverse().filter((s) => s.status === "open");
  fill(pairing.seekList, open.map((seek) => seekLine(pairing, seek)));
  pairing.seeksBox.querySelector(".seeks-empty").hidden = open.length > 0;
}

function seekLine(pairing, seek) {
  const { lobby } = pairing;
  const mine = !!lobby.nickname && seek.player === lobby.nickname;
  const spec = (lobby.specs || []).find((g) => g.name === seek.game);
  const options = Object.entries(seek.options || {})
    .map(([k, v]) => optionWords(spec?.options.find((o) => o.name === k), k, v));
  const about = [gameTitle(pairing, seek.game),
    seek.clock ? t("page.lobby.clock_line", { control: seek.clock }) : t("page.lobby.untimed"),
    t("page.pairing.players", { count: seek.seats }),
    seek.rated === false ? t("page.lobby.casual") : t("page.lobby.rated"), ...options];
  if (seek.rating_range) {
    about.push(t("page.pairing.range", { lo: seek.rating_range[0], hi: seek.rating_range[1] }));
  }
  return h("li", { class: "seek", "data-seek": seek.id },
    h("span", { class: "seek-who" }, playerLink(seek.player), ` (${seek.rating})`),
    h("span", { class: "muted small seek-about" }, about.join(" · ")),
    mine
      ? h("button", { type: "button", onclick: () => cancelSeek(pairing, seek) }, t("page.pairing.cancel"))
      : h("button", { type: "button", class: "primary", disabled: !lobby.nickname,
        onclick: () => acceptSeek(pairing, seek) }, t("page.pairing.accept")));
}

async function acceptSeek(pairing, seek) {
  try {
    const done = await api(`/api/seeks/${encodeURIComponent(seek.id)}/accept`, { method: "POST" });
    if (done.room) goTo(done.room);
    else pairing.lobby.ctx.toast(t("page.pairing.seat_taken"));
  } catch (err) {
    pairing.lobby.ctx.toast(say(err), "error");
  }
}

async function cancelSeek(pairing, seek) {
  try {
    await api(`/api/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE" });
    pairing.posted.delete(seek.id);
  } catch (err) {
    pairing.lobby.ctx.toast(say(err), "error");
  }
}

/** The form that posts a challenge: a game and its options, the clock, rated or casual. */
export function drawSeekForm(pairing, list) {
  const select = h("select", { name: "seek-game", "aria-label": t("page.lobby.game") },
    list.map((g) => h("option", { value: g.name }, g.title)));
  const optionsBox = h("div", { class: "options" });
  const drawOptions = () => {
    const game = list.find((g) => g.name === select.value);
    // the seek form's fields are its own (ids apart from the new room's form)
    fill(optionsBox, game.options.map((o) => renamed(optionField(o), "seek-")));
  };
  select.addEventListener("change", drawOptions);
  drawOptions();
  const clockBox = renamed(clockField("10+5"), "seek-");
  const rated = h("select", { name: "seek-rated", "aria-label": t("page.lobby.rated_or_casual") },
    h("option", { value: "true" }, t("page.lobby.rated")),
    h("option", { value: "false" }, t("page.lobby.casual")));
  const form = h("form", { class: "seek-form", onsubmit: async (ev) => {
    ev.preventDefault();
    await postSeek(pairing, list.find((g) => g.name === select.value), optionsBox,
      clockBox.querySelector("input").value.trim() || null, rated.value === "true");
  } },
  h("div", { class: "row" }, h("label", {}, t("page.lobby.game_label"), select), rated,
    h("button", { type: "submit", class: "primary" }, t("page.pairing.post"))),
  h("div", { class: "option" }, h("label", { for: "seek-opt-clock" }, t("page.lobby.clock")), clockBox),
  optionsBox);
  fill(pairing.formBox, form);
}

/** A form part with its ids (and the labels' `for`) prefixed, so two forms never share one. */
function renamed(el, prefix) {
  for (const node of [el, ...el.querySelectorAll("[id], [for], [list]")]) {
    for (const attr of ["id", "for", "list"]) {
      const v = node.getAttribute?.(attr);
      if (v) node.setAttribute(attr, prefix + v);
    }
  }
  return el;
}

async function postSeek(pairing, game, optionsBox, clock, rated) {
  const { lobby } = pairing;
  if (!lobby.nickname) {
    lobby.ctx.toast(t("page.lobby.nickname_first"), "error");
    return;
  }
  try {
    const body = { game: game.name, options: readOptions(optionsBox, game), clock, rated };
    const seek = await api("/api/seeks", { method: "POST", body });
    pairing.posted.add(seek.id);
    pairing.formBox.closest("details").open = false;
    lobby.ctx.toast(t("page.pairing.posted"));
  } catch (err) {
    lobby.ctx.toast(say(err), "error");
  }
}
