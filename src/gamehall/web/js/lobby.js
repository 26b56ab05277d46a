// The lobby: pick a nickname, see the rooms (pushed by the server as they change: lobby_feed.js;
// nothing is polled), create a room with options.
//
// showLobby holds the lobby's state in one object (`lobby`) that the parts below take; a
// handler or a part after an await reads it when it runs.

import { h, fill } from "./dom.js";
import { api, chooseNickname, games, signIn } from "./api.js";
import { Clocks } from "./clock.js";
import { say, t } from "./i18n.js";
import { LobbyFeed } from "./lobby_feed.js";
import { checkEntry, drawSeekForm, paired, pairingChanged, pairingParts } from "./pairing.js";
import { playerLink } from "./links.js";
import { outcomeWords, seatWord } from "./words.js";

/** The most rooms listed at once (a hall may hold thousands waiting: the rest are counted). */
const SHOWN = 100;

export function showLobby(root, ctx, game = null) {
  const lobby = {
    ctx,
    game,  // the game the new-room form starts on (the rules page's "Play …"), or null
    nickname: ctx.nickname,
    alive: true,
    filter: "",
    createButton: null,
    rooms: new Map(),  // every room's line by id, newest change last (the feed's)
    rows: new Map(),  // room id -> {line, row, clocks}: a row is built again only when it changed
    specs: null,  // GET /api/games, for the rooms' options in words
    pairing: null,  // the pools' and seeks' cards (pairing.js)
    feed: null,  // the lobby's socket (lobby_feed.js)
    els: null,
  };
  const ticker = setInterval(() => lobby.rows.forEach((r) => r.clocks.paint()), 250);
  const listBody = h("tbody");
  const empty = h("p", { class: "muted empty" }, t("page.lobby.no_rooms"));
  lobby.els = {
    nickBox: h("section", { class: "card nick", "aria-label": t("page.lobby.nickname") }),
    createBox: h("section", { class: "card create", "aria-label": t("page.lobby.new_room") }),
    listBody,
    empty,
    more: h("p", { class: "muted small more-rooms", hidden: true }),
    listBox: null,
  };
  lobby.els.listBox = roomList(lobby, listBody, empty);
  lobby.pairing = pairingParts(lobby);
  const { nickBox, createBox, listBox } = lobby.els;
  const { poolsBox, seeksBox } = lobby.pairing;
  listBox.classList.add("stale");  // until the first snapshot
  fill(root, h("div", { class: "lobby" }, nickBox, poolsBox, createBox, listBox, seeksBox));
  drawNick(lobby);
  drawCreate(lobby);
  games().then((specs) => {
    lobby.specs = specs;  // the games' titles and options' words: drawn again with them
    lobby.rows.clear();
    drawRooms(lobby);
    pairingChanged(lobby.pairing, lobby.pairing);
  }).catch(() => {});
  const feed = new LobbyFeed({
    onChange: (sections) => {
      lobby.rooms = sections.rooms;
      drawRooms(lobby);
      pairingChanged(lobby.pairing, sections);
    },
    onStatus: (status) => {
      listBox.classList.toggle("stale", status !== "open");
      if (status === "open") checkEntry(lobby.pairing);
    },
    onPaired: (msg) => paired(lobby.pairing, msg),
  });
  lobby.feed = feed;
  return {
    destroy() {
      lobby.alive = false;
      feed.close();
      clearInterval(ticker);
    },
  };
}

/** The rooms' card: the table `listBody` fills, a menu to show only some, and `empty`. */
function roomList(lobby, listBody, empty) {
  const statusSelect = h("select", { "aria-label": t("page.lobby.show_rooms"), onchange: () => {
    lobby.filter = statusSelect.value;
    drawRooms(lobby);
  } },
  h("option", { value: "" }, t("page.lobby.all_rooms")),
  h("option", { value: "waiting" }, t("page.lobby.waiting_for_players")),
  h("option", { value: "playing" }, t("page.status.playing")),
  h("option", { value: "finished" }, t("page.status.finished")));
  return h("section", { class: "card rooms", "aria-label": t("page.lobby.rooms_label") },
    h("div", { class: "row spread" }, h("h2", {}, t("page.lobby.rooms")), statusSelect),
    h("div", { class: "table-wrap" },
      h("table", { class: "room-list" },
        h("thead", {}, h("tr", {}, h("th", {}, t("page.lobby.col_game")), h("th", {}, t("page.lobby.col_seats")),
          h("th", {}, t("page.lobby.col_status")), h("th", {}, ""))),
        listBody)),
    empty, lobby.els.more);
}

function drawNick(lobby) {
  const { nickname, ctx } = lobby;
  const { nickBox } = lobby.els;
  if (nickname) {
    fill(nickBox, h("p", {}, t("page.lobby.welcome"), playerLink(nickname),
      t("page.lobby.welcome_rest")),
    ctx.account ? null : h("p", { class: "small muted", "data-testid": "guest-note" },
      t("page.lobby.guest"), h("a", { href: `#/player/${encodeURIComponent(nickname)}` },
        t("page.lobby.set_password")), t("page.lobby.guest_rest")));
    return;
  }
  fill(nickBox, h("h2", {}, t("page.lobby.pick_nickname")), nicknameForm(lobby), signInForm(ctx));
}

/** Enter the hall under a nickname: the lobby is drawn again for it. */
function nicknameForm(lobby) {
  const input = h("input", {
    name: "nickname", placeholder: t("page.lobby.your_nickname"), maxlength: 20, autocomplete: "nickname",
    pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{0,19}",
    title: t("page.lobby.nickname_rule"),
    required: true, "aria-label": t("page.lobby.nickname"),
  });
  return h("form", { class: "row", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      lobby.nickname = await chooseNickname(input.value.trim());
      lobby.ctx.renderWho(lobby.nickname);
      drawNick(lobby);
      if (lobby.createButton) lobby.createButton.disabled = false;
      lobby.feed?.identify();  // our pairings reach this page from now on
      lobby.rows.clear();  // the rooms' buttons depend on who is looking
      drawRooms(lobby);
      pairingChanged(lobby.pairing, lobby.pairing);  // Accept buttons for a player now
    } catch (err) {
      lobby.ctx.toast(say(err), "error");
    }
  } }, input, h("button", { type: "submit", class: "primary" }, t("page.lobby.enter")));
}

/** Sign in to an account (a nickname with a password) from this browser. */
function signInForm(ctx) {
  const name = h("input", { name: "login-nickname", placeholder: t("page.lobby.nickname"), maxlength: 20,
    autocomplete: "username", required: true, "aria-label": t("page.lobby.account_nickname") });
  const password = h("input", { type: "password", name: "login-password",
    placeholder: t("page.lobby.password"), maxlength: 200, autocomplete: "current-password", required: true,
    "aria-label": t("page.lobby.password") });
  return h("details", { class: "sign-in" }, h("summary", {}, t("page.lobby.or_sign_in")),
    h("form", { class: "row", "data-testid": "sign-in", onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await signIn(name.value.trim(), password.value);
        ctx.refresh();
      } catch (err) {
        ctx.toast(say(err), "error");
      }
    } }, name, password, h("button", { type: "submit", class: "primary" }, t("page.lobby.sign_in"))));
}

async function drawCreate(lobby) {
  const { createBox } = lobby.els;
  let list;
  try {
    list = await games();
  } catch (err) {
    fill(createBox, h("p", { class: "error" }, t("page.lobby.games_failed", { error: say(err) })));
    return;
  }
  fill(createBox, h("h2", {}, t("page.lobby.new_room_title")), createForm(lobby, list));
  drawSeekForm(lobby.pairing, list);
}

/** The new room's form: the game (its options follow it), rated or casual, the clock. */
function createForm(lobby, list) {
  const select = h("select", { name: "game", "aria-label": t("page.lobby.game") },
    list.map((g) => h("option", { value: g.name }, g.title)));
  const optionsBox = h("div", { class: "options" });
  const about = h("p", { class: "muted small game-description", "data-testid": "game-description" });
  const rulesLink = h("a", { class: "rules-link", "data-testid": "rules-link" }, t("page.lobby.how_to_play"));
  const drawOptions = () => {
    const game = list.find((g) => g.name === select.value);
    about.textContent = say(game, "description");
    about.hidden = !about.textContent;
    fill(optionsBox, game.options.map(optionField));
    rulesLink.href = `#/rules/${game.name}`;
    rulesLink.textContent = t("page.lobby.how_to_play_game", { game: game.title });
  };
  if (lobby.game && list.some((g) => g.name === lobby.game)) select.value = lobby.game;
  select.addEventListener("change", drawOptions);
  drawOptions();
  lobby.createButton = h("button", { type: "submit", class: "primary", disabled: !lobby.nickname },
    t("page.lobby.create"));
  const clockBox = clockField("");
  const clockInput = clockBox.querySelector("input");
  const rated = h("select", { name: "rated", "aria-label": t("page.lobby.rated_or_casual") },
    h("option", { value: "" }, t("page.lobby.rated_if_accounts")),
    h("option", { value: "true" }, t("page.lobby.rated")),
    h("option", { value: "false" }, t("page.lobby.casual")));
  return h("form", { class: "create-form", onsubmit: async (ev) => {
    ev.preventDefault();
    if (!lobby.nickname) {
      lobby.ctx.toast(t("page.lobby.nickname_first"), "error");
      return;
    }
    const game = list.find((g) => g.name === select.value);
    try {
      const body = { game: game.name, options: readOptions(optionsBox, game),
        clock: clockInput.value.trim() || null };
      if (rated.value) body.rated = rated.value === "true";
      const room = await api("/api/rooms", { method: "POST", body });
      location.hash = `#/room/${room.id}/join`;
    } catch (err) {
      lobby.ctx.toast(say(err), "error");
    }
  } },
  h("div", { class: "row" }, h("label", {}, t("page.lobby.game_label"), select), rated,
    lobby.createButton, rulesLink),
  about,
  h("div", { class: "option" }, h("label", { for: "opt-clock" }, t("page.lobby.clock")), clockBox,
    h("span", { class: "doc" }, clockDoc())),
  optionsBox);
}

/** The rooms as the feed has them now, newest change first, at most SHOWN of those the menu
 * shows; a row is built again only when its line changed. */
function drawRooms(lobby) {
  if (!lobby.alive) return;
  const { listBody, empty, more } = lobby.els;
  const shown = [];
  let matching = 0;
  for (const room of [...lobby.rooms.values()].reverse()) {
    if (lobby.filter && room.status !== lobby.filter) continue;
    matching += 1;
    if (shown.length < SHOWN) shown.push(room);
  }
  const rows = new Map();
  for (const room of shown) {
    const old = lobby.rows.get(room.id);
    rows.set(room.id, old && old.line === room ? old : roomRow(lobby, room, lobby.specs));
  }
  lobby.rows = rows;
  const wanted = [...rows.values()].map((r) => r.row);
  if (wanted.length !== listBody.children.length || wanted.some((row, i) => listBody.children[i] !== row)) {
    listBody.replaceChildren(...wanted);
  }
  empty.hidden = matching > 0;
  more.hidden = matching <= shown.length;
  more.textContent = t("page.lobby.more_rooms", { count: matching - shown.length });
}

/** A room's row and its clocks: {line, row, clocks}. */
function roomRow(lobby, room, specs) {
  const { nickname } = lobby;
  const clocks = new Clocks();
  clocks.set(room.status === "waiting" ? null : room.clock, room.received);
  const seats = room.seats.map((seat) => h("span", { class: "seat-chip" + (seat.player ? "" : " free") },
    `${seatWord(seat)}: `, seat.player ? playerLink(seat.player, { botAccount: seat.bot_account }) : t("page.lobby.free"), clocks.span(seat.index)));
  const free = room.seats.some((seat) => !seat.player);
  const open = room.status !== "finished";
  const mine = !!nickname && room.seats.some((seat) => seat.player === nickname && !seat.bot);
  const row = h("tr", { "data-room": room.id, "data-game": room.game },
    h("td", {}, h("strong", {}, room.title), h("div", { class: "muted small" }, optionText(room, specs))),
    h("td", { class: "seats" }, seats),
    h("td", {}, h("span", { class: `status ${room.status}` }, t(`page.status.${room.status}`)),
      h("span", { class: "tag" }, room.rated ? t("page.lobby.rated") : t("page.lobby.casual")),
      room.outcome ? h("div", { class: "small muted" }, outcomeWords(room)) : null),
    h("td", { class: "actions" },
      mine && open ? h("a", { class: "button primary", href: `#/room/${room.id}` }, t("page.lobby.back_to_it")) : null,
      !mine && open && free && nickname
        ? h("a", { class: "button primary", href: `#/room/${room.id}/join` }, t("page.lobby.join")) : null,
      mine && open ? null : h("a", { class: "button", href: `#/room/${room.id}` },
        room.status === "finished" ? t("page.lobby.replay") : t("page.lobby.watch"))));
  return { line: room, row, clocks };
}

/** A room's line in the lobby: its clock and the options that differ from the game's defaults,
 * in words (the room itself lists them all). */
function optionText(room, specs) {
  const game = (specs || []).find((g) => g.name === room.game);
  const spec = (k) => game?.options.find((o) => o.name === k);
  const parts = Object.entries(room.options || {})
    .filter(([k, v]) => !game || !spec(k) || spec(k).default !== v)
    .map(([k, v]) => optionWords(spec(k), k, v));
  if (room.clock) parts.unshift(t("page.lobby.clock_line", { control: room.clock.control }));
  return parts.length ? parts.join(" · ") : (game ? t("page.lobby.usual_options") : "");
}

/** An option and its value as people read them ("board size: 6", "swap (pie rule): on"), from
 * the option's description in /api/games (`label`, `words`); without one, as the name says. */
export function optionWords(spec, name, value) {
  const label = (spec && say(spec, "label")) || name.replace(/_/g, " ");
  return `${label}: ${valueWord(spec, value)}`;
}

function valueWord(spec, value) {
  const known = (spec?.words || []).find((w) => w.value === value);
  if (known) return say(known, "word");
  if (typeof value === "boolean") return value ? t("page.option.on") : t("page.option.off");
  return value === "" ? t("page.option.default") : String(value);
}

/** What the clock field takes, in words (a function: the catalogue loads after this module). */
export const clockDoc = () => t("page.lobby.clock_doc");

/** The time-control field (a text input with the usual choices offered). */
export function clockField(value) {
  const choices = ["1+0", "3+2", "5+3", "10+5", "30+20", "1d", "3d"];
  return h("span", {},
    h("input", { type: "text", id: "opt-clock", name: "clock", value, maxlength: 16,
      placeholder: t("page.lobby.untimed"), list: "clock-choices", autocomplete: "off" }),
    h("datalist", { id: "clock-choices" }, choices.map((c) => h("option", { value: c }))));
}

/** A form field for one option description from GET /api/games. */
export function optionField(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.type === "bool") {
    input = h("input", { type: "checkbox", id, name: opt.name, checked: !!opt.default });
  } else if (opt.offered) {
    input = boardChoice(opt, id);
  } else if (opt.choices) {
    input = h("select", { id, name: opt.name },
      opt.choices.map((c) => h("option", { value: String(c), selected: c === opt.default },
        valueWord(opt, c))));
  } else if (opt.type === "int") {
    input = h("input", { type: "number", id, name: opt.name, value: opt.default, step: 1,
      min: opt.min ?? undefined, max: opt.max ?? undefined });
  } else {
    input = h("input", { type: "text", id, name: opt.name, value: opt.default, maxlength: 200 });
  }
  return h("div", { class: "option" },
    h("label", { for: id }, opt.label ? say(opt, "label") : opt.name), input,
    opt.doc ? h("span", { class: "doc" }, say(opt, "doc")) : null);
}

/** A file option (a board): the boards the server offers, or a file of your own that the page
 * reads and sends as data (the server never opens a file a client names). `opt.default` is the
 * current value as the server shows it: an offered board's value or its label. */
function boardChoice(opt, id) {
  const current = (b) => b.value === opt.default || b.label === opt.default;
  // the first board offered is the game's own, labelled "default": said in the page's language
  const select = h("select", { id, name: opt.name },
    opt.offered.map((b, i) => h("option", { value: b.value, selected: current(b) },
      i === 0 ? t("page.option.default") : b.label)));
  if (!opt.offered.some(current)) {
    select.append(h("option", { value: "", disabled: true, selected: true }, String(opt.default)));
  }
  const upload = h("input", {
    type: "file", accept: ".json,application/json", "aria-label": t("page.option.from_file", { name: opt.name }),
    onchange: async () => {
      const file = upload.files[0];
      if (!file) return;
      const text = await file.text();
      select.append(h("option", { value: text }, t("page.option.file", { name: file.name })));
      select.value = text;
      select.dispatchEvent(new Event("change"));
    },
  });
  return [select, upload];
}

/** The options a form holds, typed as the game declares them (only those that differ). */
export function readOptions(box, game) {
  const out = {};
  for (const opt of game.options) {
    const el = box.querySelector(`[name="${opt.name}"]`);
    if (!el) continue;
    let value;
    if (opt.type === "bool") value = el.checked;
    else if (opt.type === "int") value = el.value.trim() === "" ? opt.default : Number(el.value);
    else value = el.value;
    if (opt.type === "int" && opt.choices) value = Number(value);
    if (value !== opt.default) out[opt.name] = value;
  }
  return out;
}
