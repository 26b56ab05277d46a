// A room: the board, seats, game administration buttons, move list, chat, result and replay.
//
// Everything a button does is a protocol message (join, bot, start, ...); typed slash commands go
// to the server as chat text and take the same path there. The board gets the server's state
// message and calls submit(notation) for a move; the board contract is boards/shell.js's. A move
// is a step of a turn composed before it is sent (compose.js): the board then draws the
// position after the steps chosen.
//
// showRoom holds the room's state in one object (`room`) that the parts below take: what the
// server last said, the board, the replay, the page's elements (`room.els`). A handler reads it
// when it runs (a button patch() keeps may outlive the state it was drawn for).

import { h, fill, patch } from "./dom.js";
import { botLevels, chooseNickname, games } from "./api.js";
import { RoomConnection } from "./connection.js";
import { loadBoard } from "./boards/index.js";
import { mountBoard } from "./boards/shell.js";
import { delta, playerLink, seatedBot } from "./links.js";
import { clockDoc, clockField, optionField, optionWords } from "./lobby.js";
import { agreedInChallenge, botUse } from "./challenge.js";
import { Replay } from "./replay.js";
import { ReviewPanel } from "./review.js";
import { Clocks, turnTitle } from "./clock.js";
import { clearTurn, signalTurn, soundToggle } from "./attention.js";
import { outcomeWords, resultWords, seatWord } from "./words.js";
import { drawMoves } from "./moves.js";
import { HintBox } from "./hint.js";
import { Composer } from "./compose.js";
import { playerWords, say, t } from "./i18n.js";


export function showRoom(root, roomId, ctx, autoJoin, autoReplay = false, autoReview = false) {
  const room = {
    roomId, ctx, autoReplay, autoReview,
    nickname: ctx.nickname,
    state: null,        // the latest state message
    board: null,        // the mounted board (shell.js's contract: update, refused, destroy)
    boardGame: null,
    boardReady: null,   // a promise of the board once its module has loaded
    composer: null,     // this page's turn being composed (compose.js)
    moveCount: 0,
    joinWanted: autoJoin && !!ctx.nickname,
    replay: null,       // a Replay while stepping through the record
    review: null,       // the ReviewPanel once a review was asked for (review.js)
    alive: true,
    clocks: new Clocks(),
    els: null,          // the page's elements (roomElements)
    conn: null,
  };
  room.clocks.start();
  room.composer = new Composer({ send: (message) => sendAsked(room, message),
    redraw: () => redrawTurn(room) });
  room.els = roomElements(room);
  room.hint = new HintBox(roomId, ctx.toast, (hint) => {
    if (room.board && room.state && !room.replay) {
      room.board.update({ ...room.state, hint: { move: hint.move, ...hint.parts } });
    }
  });
  fill(root, roomLayout({ ...room.els, hint: room.hint.el, turnBar: room.composer.el }));
  const onKey = (ev) => keyDown(room, ev);
  document.addEventListener("keydown", onKey);
  room.conn = new RoomConnection(roomId, {
    onMessage: (msg) => onMessage(room, msg),
    onStatus: (kind, detail) => onStatus(room, kind, detail),
  });
  // for tools and tests: the connection, the state drawn (during a turn being composed, the
  // position after its steps), the server's latest, the board, the replay, and a move as a
  // board sends it
  window.gamehall = { room: { conn: room.conn, submit: (move) => submit(room, move),
    get state() { return room.state && !room.replay ? room.composer.shown(room.state) : room.state; },
    get served() { return room.state; }, get board() { return room.board; },
    get replay() { return room.replay; } } };
  return {
    destroy() {
      room.alive = false;
      document.removeEventListener("keydown", onKey);
      room.clocks.stop();
      clearTurn();
      room.conn.close();
      if (room.board) room.board.destroy();
      if (room.replay) room.replay.destroy();
      if (room.review) room.review.destroy();
      delete window.gamehall;
    },
  };
}

/** The page's elements that the parts below fill or read. */
function roomElements(room) {
  return {
    title: h("h1", { class: "room-title" }, t("page.room.room")),
    statusLine: h("p", { class: "status-line", "data-testid": "status", "aria-live": "polite" }),
    link: h("span", { class: "conn", "data-testid": "connection" }, t("page.room.link.connecting")),
    ratedTag: h("span", { class: "tag rated-tag", "data-testid": "rated" }),
    rulesLink: h("a", { class: "rules-link", "data-testid": "rules-link" }, t("page.lobby.how_to_play")),
    resultBox: h("div", { class: "result", "data-testid": "result", hidden: true }),
    boardHost: h("div", { class: "board-host", "data-testid": "board" }),
    replayBar: h("div", { class: "replay-bar", hidden: true, "data-testid": "replay-bar" }),
    reviewBox: h("section", { class: "review card", hidden: true, "data-testid": "review" }),
    seatsBox: h("div", { class: "seats", "data-testid": "seats" }),
    adminBox: h("div", { class: "admin", "data-testid": "admin" }),
    optionsBox: h("div", { class: "room-options" }),
    movesList: h("ol", { class: "moves", "data-testid": "moves" }),
    chatLog: h("div", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" }),
    chatForm: chatForm(room),
    botLevel: botLevelMenu(),
  };
}

/** The chat box: a line is sent as it is typed (slash commands too); without a nickname the
 * visitor is asked for one instead. */
function chatForm(room) {
  const chatInput = h("input", {
    name: "chat", placeholder: t("page.room.chat_placeholder"), maxlength: 500, autocomplete: "off",
    "aria-label": t("page.room.chat_label"),
  });
  return h("form", { class: "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!room.nickname) {
      askNickname(room);
      return;
    }
    if (send(room, { type: "chat", text })) chatInput.value = "";
  } }, chatInput, h("button", { type: "submit" }, t("page.room.send")));
}

/** The bot level menu. The levels and the default come from the server, so the menu starts on
 * what /bot seats. */
function botLevelMenu() {
  const botLevel = h("select", { "aria-label": t("page.room.bot_level"), class: "bot-level" });
  botLevels().then(({ levels, default: level }) => {
    fill(botLevel, levels.map((l) => h("option", { value: l, selected: l === level }, t("page.room.level_bot", { level: l }))));
  }).catch(() => fill(botLevel, h("option", { value: "" }, t("page.board.bot"))));
  return botLevel;
}

function roomLayout(els) {
  return h("div", { class: "room" },
    h("section", { class: "play-area" },
      h("div", { class: "room-head" },
        h("a", { href: "#/", class: "back" }, t("page.rules.back")), els.title, els.ratedTag, els.link,
        els.rulesLink, soundToggle()),
      els.statusLine, els.turnBar, els.hint, els.resultBox, els.boardHost, els.replayBar,
      els.reviewBox),
    h("aside", { class: "side" },
      h("section", { class: "card" }, h("h2", {}, t("page.room.seats")), els.seatsBox, els.adminBox,
        els.optionsBox),
      h("section", { class: "card" }, h("h2", {}, t("page.room.moves")), els.movesList),
      h("section", { class: "card chat" }, h("h2", {}, t("page.room.chat")), els.chatLog, els.chatForm)));
}

// --- the connection ----------------------------------------------------------------------------
function send(room, message) {
  if (room.conn.send(message)) return true;
  room.ctx.toast(t("page.room.not_sent"), "error");
  return false;
}

function onStatus(room, kind, detail) {
  const { link, statusLine } = room.els;
  link.className = `conn ${kind}`;
  link.textContent = ["connecting", "open", "closed", "gone"].includes(kind)
    ? t(`page.room.link.${kind}`) : kind;
  if (detail) link.title = detail;
  if (kind === "closed") addLine(room, "info", detail);
  if (kind === "gone") {
    statusLine.textContent = t("page.room.no_such_room");
  }
}

function onMessage(room, msg) {
  switch (msg.type) {
    case "state": onState(room, msg); break;
    case "chat": addLine(room, "chat", msg.text, msg.from); break;
    case "info": addLine(room, "info", say(msg, "text")); break;
    case "error": onError(room, msg); break;
    case "review": if (room.review) room.review.pushed(msg); break;
    case "preview": room.composer.previewed(msg); break;
    case "welcome":
      if (msg.you === null && room.nickname) {
        addLine(room, "info", t("page.room.watching_unknown"));
      }
      break;
    default: break;
  }
}

/** A refusal: said in the chat and a toast; the board hears of it when it was its move. */
function onError(room, msg) {
  const mine = msg.id !== undefined && room.composer.refused(msg.id);
  if (msg.code === "not_identified") {
    askNickname(room);
    return;
  }
  const text = say(msg);  // the server's sentence, in the page's language
  addLine(room, "error", text);
  room.ctx.toast(text, "error");
  if (mine && room.board) room.board.refused(msg);
}

async function onState(room, msg) {
  const first = room.state === null;
  if (!withEarlierMoves(room, msg)) return;
  room.state = msg;
  room.composer.state(msg);
  drawState(room, msg);
  if (first) firstState(room, msg);
  followRematch(msg);
  if (room.replay) return;  // the board shows the replayed position until the replay is closed
  await showBoard(room, room.composer.shown(msg));
  if (room.state === msg) room.hint.update(msg);
}

/** Later states carry only the moves this connection has not been sent (from `moves_from`):
 * put the earlier ones in front. False on a gap: the whole list is asked for again. */
function withEarlierMoves(room, msg) {
  const from = msg.moves_from || 0;
  if (from > 0) {
    const { state } = room;
    if (!state || state.moves.length < from) {
      send(room, { type: "sync" });  // a gap: ask for the whole list again
      return false;
    }
    msg.moves = state.moves.slice(0, from).concat(msg.moves);
  }
  return true;
}

/** Everything beside the board that a state changes. */
function drawState(room, msg) {
  const { title, rulesLink, ratedTag } = room.els;
  title.textContent = t("page.room.title", { game: msg.title, room: msg.room });
  rulesLink.href = `#/rules/${msg.game}`;
  document.title = msg.status === "finished"
    ? t("page.room.tab_over", { result: resultWords(msg), game: msg.title }) : turnTitle(msg);
  room.clocks.set(msg.clock);
  drawSeats(room);
  drawAdmin(room);
  drawOptions(room);
  drawMoves(room);
  drawStatus(room);
  drawResult(room);
  room.composer.draw(msg.status === "playing" && msg.seat !== null && msg.to_move === msg.seat);
  signalTurn(msg.seat !== null && msg.status === "playing" && msg.to_move === msg.seat);
  ratedTag.textContent = msg.rated ? t("page.lobby.rated") : t("page.lobby.casual");
  ratedTag.title = msg.rated ? t("page.room.rated_title") : t("page.room.casual_title");
}

/** What the address asked for, done on the first state: a replay (#/room/…/replay), or a seat
 * (#/room/…/join, where one is free). */
function firstState(room, msg) {
  if (room.autoReplay && msg.status !== "waiting" && msg.moves.length) {
    history.replaceState(null, "", `#/room/${room.roomId}`);
    startReplay(room);
  }
  if (room.autoReview && msg.status === "finished") {
    history.replaceState(null, "", `#/room/${room.roomId}`);
    startReview(room);
  }
  if (room.joinWanted) {
    room.joinWanted = false;
    history.replaceState(null, "", `#/room/${room.roomId}`);
    if (msg.seat === null && msg.status !== "finished" && msg.seats.some((x) => !x.player)) {
      send(room, { type: "join" });
    }
  }
}

/** Both players asked: go to the new room (watchers and a player who never asked get a link). */
function followRematch(msg) {
  const mine = msg.seat !== null && msg.seats[msg.seat];
  if (msg.rematch && mine && mine.rematch) location.hash = `#/room/${msg.rematch}`;
}

/** Draw a state on the board, loading the game's board module (the one /api/games names)
 * the first time (once, even when several states arrive while it loads; they are drawn in
 * order). */
async function showBoard(room, boardState) {
  if (room.boardGame !== boardState.game) {
    room.boardGame = boardState.game;
    if (room.board) room.board.destroy();
    room.board = null;
    room.boardReady = boardModule(boardState.game).then(loadBoard).then((createBoard) => {
      if (!room.alive) return null;
      room.board = mountBoard(room.els.boardHost, createBoard,
        { submit: (move) => submit(room, move), toast: room.ctx.toast });
      if (room.board.words) drawMoves(room);  // the moves drawn before, now in the board's words
      return room.board;
    });
  }
  const ready = await room.boardReady;
  if (!ready || !room.alive || (room.replay && !boardState.replay)) return;
  ready.update(boardState);
}

/** The address of `game`'s board module, from /api/games (null: the generic board). */
async function boardModule(game) {
  try {
    return (await games()).find((g) => g.name === game)?.board || null;
  } catch (_) {
    return null;
  }
}

/** A move as the board sends it: the next step of this page's turn (compose.js), one at a
 * time. */
function submit(room, move) {
  if (!room.state || room.replay) return;
  room.composer.step(room.state, move);
}

/** Send `message` with an id of its own: the id, or null when it could not be sent. */
function sendAsked(room, message) {
  const id = `turn-${++room.moveCount}`;
  return send(room, { ...message, id }) ? id : null;
}

/** The turn being composed changed (a step chosen or taken back, the turn sent): draw the
 * board, the move list and the turn's bar again. */
function redrawTurn(room) {
  const { state } = room;
  if (!state || room.replay || !room.alive) return;
  drawMoves(room);
  room.composer.draw(state.status === "playing" && state.seat !== null && state.to_move === state.seat);
  if (room.board) room.board.update(room.composer.shown(state));
}

/** Escape puts down a piece picked up, else takes the turn's last step back. */
function keyDown(room, ev) {
  if (ev.key !== "Escape" || ev.defaultPrevented) return;
  if (ev.target && ev.target.closest && ev.target.closest("input, textarea, select")) return;
  if ((room.board && room.board.cancel && room.board.cancel()) || room.composer.back()) {
    ev.preventDefault();
  }
}

/** A visitor without a nickname tried to chat or play: say so, and show them the box. */
function askNickname(room) {
  const text = t("page.room.ask_nickname");
  addLine(room, "error", text);
  room.ctx.toast(text, "error");
  const box = room.els.seatsBox.querySelector("input[name=nickname]");
  if (box) box.focus();
}

// --- seats and administration --------------------------------------------------------------
/** Whether this page may set up the table (bots, options, start): the server lets anyone
 * seated do it, and anyone while no person sits (the room's creator too; its commands work). */
function manager(room) {
  const { nickname, state } = room;
  if (!nickname || !state) return false;
  return state.seat !== null || !state.seats.some((x) => x.player && !x.bot);
}

/** The seat list, updated in place: each seat's line and its clock stay the same elements
 * from state to state (nothing flickers, the clock keeps counting, a button keeps its press). */
function drawSeats(room) {
  const { seatsBox } = room.els;
  let list = seatsBox.querySelector(":scope > ul.seat-list");
  if (!list) list = h("ul", { class: "seat-list" });
  const items = room.state.seats.map((seat) => {
    const item = list.querySelector(`:scope > li[data-seat="${seat.index}"]`) || h("li", {});
    return seatItem(room, seat, item);
  });
  patch(list, items);
  const form = !room.nickname ? (seatsBox.querySelector(":scope > form") || nicknameForm(room)) : null;
  patch(seatsBox, list, form);
}

/** One seat's line (`item`, updated): who sits there, their state and clock, and what this
 * page may do there. */
function seatItem(room, seat, item) {
  const { state } = room;
  const finished = state.status === "finished";
  const mine = state.seat === seat.index;
  const toMove = state.to_move === seat.index && state.status === "playing";
  const who = seat.player
    ? h("span", { class: "occupant" }, playerLink(seat.player, { botAccount: seat.bot_account }), seat.bot ? h("span", { class: "tag" }, t("page.board.bot")) : null)
    : h("span", { class: "occupant free" }, t("page.lobby.free"));
  item.className = `seat${mine ? " mine" : ""}${toMove ? " to-move" : ""}`;
  item.dataset.seat = String(seat.index);
  item.dataset.seatName = seat.name;
  return patch(item,
  h("span", { class: `dot ${seat.connected ? "on" : "off"}`,
    title: seat.connected ? t("page.room.connected") : t("page.room.not_connected") }),
  h("span", { class: "seat-name" }, seatWord(seat)),
  who,
  mine ? h("span", { class: "tag you" }, t("page.room.you")) : null,
  toMove ? h("span", { class: "tag turn" }, t("page.room.to_move_tag")) : null,
  seat.out ? h("span", { class: "tag out", title: t("page.room.out_title") },
    seat.out === "time" ? t("page.room.out_of_time") : t("page.room.away_out")) : null,
  finished && seat.rematch ? h("span", { class: "tag" }, t("page.room.rematch_tag")) : null,
  room.clocks.span(seat.index),
  h("span", { class: "seat-buttons" }, seatButtons(room, seat)));
}

/** Sit here, seat or change a bot, remove it: what this page may do at `seat`. */
function seatButtons(room, seat) {
  const { state } = room;
  const finished = state.status === "finished";
  const buttons = [];
  if (!finished && !seat.player && room.nickname) {
    buttons.push(h("button", { type: "button", "data-action": "join",
      onclick: () => send(room, { type: "join", seat: seat.index }) }, t("page.room.sit_here")));
  }
  if (!finished && (!seat.player || (seat.bot && state.status === "waiting")) && manager(room)) {
    buttons.push(h("button", { type: "button", "data-action": "bot",
      onclick: () => send(room, { type: "bot", seat: seat.index, level: room.els.botLevel.value }) },
    seat.bot ? t("page.room.change_bot") : t("page.room.seat_bot")));
  }
  if (seat.bot && state.status === "waiting" && manager(room)) {
    buttons.push(h("button", { type: "button", "data-action": "remove-bot",
      onclick: () => send(room, { type: "leave", seat: seat.index }) }, t("page.room.remove")));
  }
  return buttons;
}

/** For a visitor without one: choose a nickname, then the page starts again under it. */
function nicknameForm(room) {
  const input = h("input", { name: "nickname", placeholder: t("page.lobby.nickname"), maxlength: 20,
    "aria-label": t("page.lobby.nickname") });
  return h("form", { class: "row", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      room.nickname = await chooseNickname(input.value.trim());
      room.ctx.renderWho(room.nickname);
      room.conn.close();
      location.reload();
    } catch (err) {
      room.ctx.toast(say(err), "error");
    }
  } }, input, h("button", { type: "submit", class: "primary" }, t("page.room.play_under_name")));
}

function drawAdmin(room) {
  const { state } = room;
  const { botLevel } = room.els;
  const st = state.status;
  // A seat that dropped out is played by a bot: its person can neither leave nor resign it.
  const seated = state.seat !== null && !state.seats[state.seat].out;
  const fixed = agreedInChallenge(state);
  const away = state.absent;
  const takeOver = st === "playing" && seated && away && away.claim_in_ms === 0
    && away.seat !== state.seat;
  const buttons = [];
  if (st !== "finished" && manager(room) && (!fixed || botUse(state, takeOver))) {
    buttons.push(botLevel);
  }
  if (st === "waiting" && manager(room) && !fixed) {
    buttons.push(h("button", { type: "button", "data-action": "rated",
      title: t("page.room.rated_button_title"),
      onclick: () => send(room, { type: "rated", value: !room.state.rated }) },
    state.rated ? t("page.room.make_casual") : t("page.room.make_rated")));
  }
  if (st === "waiting" && manager(room)) {
    buttons.push(h("button", { type: "button", class: "primary", "data-action": "start",
      onclick: () => send(room, { type: "start" }) }, t("page.room.start")));
  }
  if (st !== "finished" && seated && !state.seats[state.seat].challenged) {
    buttons.push(h("button", { type: "button", "data-action": "leave",
      onclick: () => {
        // No empty seat in a running game: the server counts leaving as resigning.
        if (st !== "playing" || confirm(t("page.room.leave_confirm"))) {
          send(room, { type: "leave" });
        }
      } }, t("page.room.leave_seat")));
  }
  if (takeOver) {
    buttons.push(h("button", { type: "button", class: "primary", "data-action": "claim",
      onclick: () => send(room, { type: "claim" }) }, t("page.room.claim")));
  }
  if (takeOver && !state.seats[away.seat].challenged) {
    buttons.push(h("button", { type: "button", "data-action": "take-over",
      onclick: () => send(room, { type: "bot", seat: away.seat, level: botLevel.value }) },
    t("page.room.take_over", { player: playerWords(away.player) })));
  }
  // An arena's game (its clock lists who went berserk): before one's first move, one may.
  const berserk = state.clock && Array.isArray(state.clock.berserk) ? state.clock.berserk : null;
  if (st === "playing" && seated && berserk && !berserk.includes(state.seat)
      && !state.moves.some((m) => m.seat === state.seat)) {
    buttons.push(h("button", { type: "button", "data-action": "berserk",
      title: t("page.room.berserk_title"),
      onclick: () => send(room, { type: "berserk" }) }, t("page.room.berserk")));
  }
  if (st === "playing" && seated) {
    buttons.push(h("button", { type: "button", class: "danger", "data-action": "resign",
      onclick: () => {
        if (confirm(t("page.room.resign_confirm"))) send(room, { type: "resign" });
      } }, t("page.room.resign")));
  }
  buttons.push(h("button", { type: "button", "data-action": "who",
    onclick: () => send(room, { type: "who" }) }, t("page.room.who")));
  buttons.push(h("button", { type: "button", "data-action": "help",
    onclick: () => send(room, { type: "help" }) }, t("page.room.commands")));
  if (st !== "waiting" && state.moves.length) {
    buttons.push(h("button", { type: "button", "data-action": "replay",
      onclick: () => startReplay(room) }, st === "finished" ? t("page.lobby.replay") : t("page.room.replay_so_far")));
  }
  patch(room.els.adminBox, buttons);  // kept where unchanged: a press as a state arrives still clicks
}

/** The room's options: a plain line, or (to set up the table while it waits) fields that send
 * each change. The options' kinds come from /api/games; the state is read once they have. */
async function drawOptions(room) {
  const entries = Object.entries(room.state.options || {});
  const control = room.state.clock ? room.state.clock.control : "";
  let spec = [];
  try {
    spec = (await games()).find((g) => g.name === room.state.game)?.options || [];
  } catch (_) { /* leave the plain list */ }
  const { optionsBox } = room.els;
  if (room.state.status !== "waiting" || !manager(room) || agreedInChallenge(room.state)) {
    const shown = entries.map(([k, v]) => optionWords(spec.find((o) => o.name === k), k, v));
    shown.unshift(control ? t("page.lobby.clock_line", { control }) : t("page.lobby.untimed"));
    fill(optionsBox, h("p", { class: "small muted", "data-testid": "room-options" },
      shown.join(" · ")));
    return;
  }
  fill(optionsBox, h("details", {}, h("summary", {}, t("page.room.options")), clockRow(room, control),
    spec.map((opt) => optionRow(room, opt))));
}

function clockRow(room, control) {
  const clockBox = clockField(control);
  const clockInput = clockBox.querySelector("input");
  clockInput.addEventListener("change", () => {
    send(room, { type: "clock", control: clockInput.value.trim() || null });
  });
  return h("div", { class: "option" }, h("label", { for: "opt-clock" }, t("page.lobby.clock")),
    clockBox, h("span", { class: "doc" }, clockDoc()));
}

function optionRow(room, opt) {
  const field = optionField({ ...opt, default: room.state.options[opt.name] ?? opt.default });
  const input = field.querySelector("[name]");
  input.addEventListener("change", () => {
    const value = opt.type === "bool" ? input.checked
      : (opt.type === "int" ? Number(input.value) : input.value);
    send(room, { type: "option", key: opt.name, value });
  });
  return field;
}

// --- status, result -----------------------------------------------------------------
function drawStatus(room) {
  const { state, replay } = room;
  const { statusLine } = room.els;
  if (replay) {
    statusLine.textContent = t("page.room.replay_status", replay.place());
    return;
  }
  const st = state.status;
  if (st === "waiting") {
    statusLine.textContent = waitingWords(room);
  } else if (st === "playing") {
    playingStatus(room);
  } else {
    statusLine.textContent = t("page.room.game_over");
  }
  statusLine.classList.toggle("your-turn", st === "playing" && state.to_move === state.seat);
}

/** Before the start: whom the table waits for, and what this visitor may do about it. */
function waitingWords(room) {
  const free = room.state.seats.filter((x) => !x.player).map((x) => seatWord(x));
  const who = !room.nickname ? "visitor" : (manager(room) ? "manager" : "player");
  return free.length ? t(`page.room.waiting.${who}`, { seats: free.join(", ") })
    : t(`page.room.full.${who}`);
}

/** During the game: whose move it is, or who is away (and when they may be claimed). */
function playingStatus(room) {
  const { state } = room;
  const { statusLine } = room.els;
  const away = state.absent;
  const mySeat = state.seat !== null ? state.seats[state.seat] : null;
  if (mySeat && mySeat.out) {
    statusLine.textContent = t("page.room.you_are_out");
  } else if (away && away.seat !== state.seat) {
    statusLine.textContent = away.claim_in_ms > 0
      ? t("page.room.away", { player: playerWords(away.player), seconds: Math.ceil(away.claim_in_ms / 1000) })
      : t("page.room.away_too_long", { player: playerWords(away.player) });
  } else if (state.to_move === null || state.to_move === undefined) {
    statusLine.textContent = t("page.room.chance_drawing");
  } else if (state.to_move === state.seat) {
    statusLine.textContent = t("page.room.your_move", { seat: seatWord(state.seats[state.seat]) });
  } else {
    const seat = state.seats[state.to_move];
    fill(statusLine, t("page.room.seat_to_move", { seat: seatWord(seat) }),
      seat.player ? [" (", playerLink(seat.player, { botAccount: seat.bot_account }), ")"] : "", ".");
  }
}

function drawResult(room) {
  const { state } = room;
  const { resultBox } = room.els;
  if (state.status !== "finished") {
    resultBox.hidden = true;
    return;
  }
  resultBox.hidden = false;
  const changes = (state.rating_changes || []).map((c) => h("li", { "data-seat": c.seat },
    playerLink(c.player, { botAccount: seatedBot(state.seats, c.player) }),
    ` ${c.before} → ${c.after} `,
    h("strong", {}, `(${delta(c.before, c.after)})`)));
  // compact, its buttons on one line: the final position stays in view under it
  fill(resultBox, h("strong", { class: "result-words", "data-testid": "result-words" },
    resultWords(state)),
  state.outcome ? h("p", { class: "small outcome", "data-testid": "outcome" },
    outcomeWords(state)) : null,
    changes.length ? h("div", { class: "rating-changes", "data-testid": "rating-changes" },
      h("span", { class: "small muted" }, t("page.room.ratings")), h("ul", {}, changes)) : null,
    h("div", { class: "row result-actions" }, rematchBox(room),
      h("button", { type: "button", "data-action": "review", disabled: !!room.review,
        title: t("page.room.review_title"),
        onclick: () => startReview(room) }, t("page.archive.review"))));
}

/** After the end: ask for a rematch, see who asked, or follow the link to it. */
function rematchBox(room) {
  const { state } = room;
  if (state.rematch) {
    return h("span", {}, h("a", { class: "button primary", href: `#/room/${state.rematch}`,
      "data-action": "to-rematch" }, t("page.room.to_rematch")));
  }
  const mine = state.seat !== null ? state.seats[state.seat] : null;
  if (!mine || mine.bot) {
    return state.rematch_of ? h("span", { class: "small muted" }, t("page.room.is_rematch")) : null;
  }
  const waiting = state.seats.filter((x) => x.player && !x.bot && !x.rematch).map((x) => x.player);
  return h("span", {}, h("button", { type: "button", class: "primary", "data-action": "rematch",
    disabled: mine.rematch, onclick: () => send(room, { type: "rematch" }) },
  mine.rematch ? t("page.room.rematch_asked") : t("page.room.rematch")),
  mine.rematch && waiting.length
    ? h("span", { class: "small muted" }, ` ${t("page.room.rematch_waiting", { players: waiting.join(", ") })}`) : null);
}

// --- chat ----------------------------------------------------------------------------------
function addLine(room, kind, text, from) {
  const { chatLog } = room.els;
  const atBottom = chatLog.scrollTop + chatLog.clientHeight >= chatLog.scrollHeight - 20;
  chatLog.append(h("div", { class: `line ${kind}` },
    from ? h("span", { class: "from" },
      playerLink(from, { botAccount: seatedBot(room.state?.seats, from) }), ": ") : null,
    kind === "info" ? columns(text) : h("span", { class: "text" }, text)));
  while (chatLog.childElementCount > 300) chatLog.firstElementChild.remove();
  if (atBottom) chatLog.scrollTop = chatLog.scrollHeight;
}

// --- replay --------------------------------------------------------------------------------
function startReplay(room) {
  if (room.replay || !room.state) return;
  const { replayBar } = room.els;
  room.replay = new Replay(room.roomId, room.state, {
    show: async (boardState) => {
      await showBoard(room, boardState);
      drawMoves(room);
      drawStatus(room);
      if (room.review) room.review.at(room.replay.step);
    },
    error: (text) => room.ctx.toast(text, "error"),
    close: () => {
      room.replay = null;
      replayBar.hidden = true;
      drawMoves(room);
      drawStatus(room);
      if (room.state) showBoard(room, room.state);
    },
  });
  replayBar.hidden = false;
  room.replay.mount(replayBar);
  room.replay.go(room.state.moves.length);
}

// --- review --------------------------------------------------------------------------------
/** Ask for the game's review and show it under the board; its graph and marks step the replay. */
function startReview(room) {
  if (room.review || !room.state) return;
  room.review = new ReviewPanel(room.roomId, room.els.reviewBox, {
    seats: () => room.state.seats,
    game: () => room.state.game,
    jump: (step, hint) => {
      if (!room.replay) startReplay(room);
      if (room.replay) room.replay.go(step, hint);
    },
  });
  room.review.open();
  drawResult(room);
}

/** A server notice; one of several lines each in two columns (two spaces or more apart, as
 * /help's list is) becomes a table, so its columns line up in any font. */
function columns(text) {
  const lines = String(text).split("\n");
  const rows = lines.map((l) => l.match(/^(\S.*?)\s{2,}(\S.*)$/));
  if (lines.length < 2 || rows.some((r) => !r)) return h("span", { class: "text" }, text);
  return h("table", { class: "text columns" }, rows.map((r) => h("tr", {},
    h("td", {}, r[1]), h("td", {}, r[2]))));
}
