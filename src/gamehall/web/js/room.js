// A room: the board, seats, game administration buttons, move list, chat, result and replay.
//
// Everything a button does is a protocol message (join, bot, start, ...); typed slash commands go
// to the server as chat text and take the same path there. The board gets the server's state
// message and calls submit(notation) for a move; the board contract is boards/shell.js's.

import { h, fill, patch, scrollWithin } from "./dom.js";
import { botLevels, chooseNickname, games } from "./api.js";
import { RoomConnection } from "./connection.js";
import { loadBoard } from "./boards/index.js";
import { mountBoard } from "./boards/shell.js";
import { delta, playerLink } from "./links.js";
import { CLOCK_DOC, clockField, optionField, optionWords } from "./lobby.js";
import { Replay } from "./replay.js";
import { Clocks, turnTitle } from "./clock.js";
import { clearTurn, signalTurn, soundToggle } from "./attention.js";
import { outcomeWords, personName, resultWords } from "./words.js";


export function showRoom(root, roomId, ctx, autoJoin, autoReplay = false) {
  let nickname = ctx.nickname;
  let state = null;      // the latest state message
  let board = null;      // the mounted board (shell.js's contract: update, refused, destroy)
  let boardGame = null;
  let boardReady = null;  // a promise of the board once its module has loaded
  let pendingMove = null; // the id of this page's move the server has not answered yet
  let moveCount = 0;
  let joinWanted = autoJoin && !!nickname;
  let replay = null;     // a Replay while stepping through the record
  let alive = true;
  const clocks = new Clocks();
  clocks.start();

  const title = h("h1", { class: "room-title" }, "Room");
  const statusLine = h("p", { class: "status-line", "data-testid": "status", "aria-live": "polite" });
  const link = h("span", { class: "conn", "data-testid": "connection" }, "connecting…");
  const ratedTag = h("span", { class: "tag rated-tag", "data-testid": "rated" });
  const rulesLink = h("a", { class: "rules-link", "data-testid": "rules-link" }, "How to play");
  const resultBox = h("div", { class: "result", "data-testid": "result", hidden: true });
  const boardHost = h("div", { class: "board-host", "data-testid": "board" });
  const replayBar = h("div", { class: "replay-bar", hidden: true, "data-testid": "replay-bar" });
  const seatsBox = h("div", { class: "seats", "data-testid": "seats" });
  const adminBox = h("div", { class: "admin", "data-testid": "admin" });
  const optionsBox = h("div", { class: "room-options" });
  const movesList = h("ol", { class: "moves", "data-testid": "moves" });
  const chatLog = h("div", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite" });
  const chatInput = h("input", {
    name: "chat", placeholder: "say something, or /help", maxlength: 500, autocomplete: "off",
    "aria-label": "chat message",
  });
  const chatForm = h("form", { class: "chat-form", onsubmit: (ev) => {
    ev.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (!nickname) {
      askNickname();
      return;
    }
    if (send({ type: "chat", text })) chatInput.value = "";
  } }, chatInput, h("button", { type: "submit" }, "Send"));
  // The levels and the default come from the server, so the menu starts on what /bot seats.
  const botLevel = h("select", { "aria-label": "bot level", class: "bot-level" });
  botLevels().then(({ levels, default: level }) => {
    fill(botLevel, levels.map((l) => h("option", { value: l, selected: l === level }, `${l} bot`)));
  }).catch(() => fill(botLevel, h("option", { value: "" }, "bot")));

  fill(root, h("div", { class: "room" },
    h("section", { class: "play-area" },
      h("div", { class: "room-head" },
        h("a", { href: "#/", class: "back" }, "← lobby"), title, ratedTag, link, rulesLink,
        soundToggle()),
      statusLine, resultBox, boardHost, replayBar),
    h("aside", { class: "side" },
      h("section", { class: "card" }, h("h2", {}, "Seats"), seatsBox, adminBox, optionsBox),
      h("section", { class: "card" }, h("h2", {}, "Moves"), movesList),
      h("section", { class: "card chat" }, h("h2", {}, "Chat"), chatLog, chatForm))));

  const conn = new RoomConnection(roomId, { onMessage, onStatus });
  // for tools and tests: the connection, the latest state, the board, and a move as a board sends it
  window.gamehall = { room: { conn, submit: (move) => submit(move), get state() { return state; },
    get board() { return board; } } };

  function send(message) {
    if (conn.send(message)) return true;
    ctx.toast("not connected: your message was not sent (reconnecting…)", "error");
    return false;
  }

  function onStatus(kind, detail) {
    link.className = `conn ${kind}`;
    link.textContent = { connecting: "connecting…", open: "online", closed: "offline",
      gone: "no such room" }[kind] || kind;
    if (detail) link.title = detail;
    if (kind === "closed") addLine("info", detail);
    if (kind === "gone") {
      statusLine.textContent = "There is no such room.";
    }
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "state": onState(msg); break;
      case "chat": addLine("chat", msg.text, msg.from); break;
      case "info": addLine("info", msg.text); break;
      case "error": {
        const mine = pendingMove !== null && msg.id === pendingMove;
        if (mine) pendingMove = null;
        if (msg.code === "not_identified") {
          askNickname();
          break;
        }
        addLine("error", msg.message);
        ctx.toast(msg.message, "error");
        if (mine && board) board.refused(msg);
        break;
      }
      case "welcome":
        if (msg.you === null && nickname) {
          addLine("info", "you are watching (the server does not know your nickname)");
        }
        break;
      default: break;
    }
  }

  async function onState(msg) {
    const first = state === null;
    // Later states carry only the moves this connection has not been sent (from `moves_from`).
    const from = msg.moves_from || 0;
    if (from > 0) {
      if (!state || state.moves.length < from) {
        send({ type: "sync" });  // a gap: ask for the whole list again
        return;
      }
      msg.moves = state.moves.slice(0, from).concat(msg.moves);
    }
    state = msg;
    pendingMove = null;
    title.textContent = `${msg.title} · room ${msg.room}`;
    rulesLink.href = `#/rules/${msg.game}`;
    document.title = msg.status === "finished"
      ? `Game over: ${resultWords(msg)} · ${msg.title} · gamehall` : turnTitle(msg);
    clocks.set(msg.clock);
    drawSeats();
    drawAdmin();
    drawOptions();
    drawMoves();
    drawStatus();
    drawResult();
    signalTurn(msg.seat !== null && msg.status === "playing" && msg.to_move === msg.seat);
    ratedTag.textContent = msg.rated ? "rated" : "casual";
    ratedTag.title = msg.rated ? "this game changes the players' ratings" : "this game is not rated";
    if (first && autoReplay && msg.status !== "waiting" && msg.moves.length) {
      history.replaceState(null, "", `#/room/${roomId}`);
      startReplay();
    }
    if (first && joinWanted) {
      joinWanted = false;
      history.replaceState(null, "", `#/room/${roomId}`);
      if (msg.seat === null && msg.status !== "finished" && msg.seats.some((x) => !x.player)) {
        send({ type: "join" });
      }
    }
    followRematch(msg);
    if (replay) return;  // the board shows the replayed position until the replay is closed
    await showBoard(msg);
  }

  /** Both players asked: go to the new room (watchers and a player who never asked get a link). */
  function followRematch(msg) {
    const mine = msg.seat !== null && msg.seats[msg.seat];
    if (msg.rematch && mine && mine.rematch) location.hash = `#/room/${msg.rematch}`;
  }

  /** Draw a state on the board, loading the game's board module (the one /api/games names)
   * the first time (once, even when several states arrive while it loads; they are drawn in
   * order). */
  async function showBoard(boardState) {
    if (boardGame !== boardState.game) {
      boardGame = boardState.game;
      if (board) board.destroy();
      board = null;
      boardReady = boardModule(boardState.game).then(loadBoard).then((createBoard) => {
        if (!alive) return null;
        board = mountBoard(boardHost, createBoard, { submit, toast: ctx.toast });
        return board;
      });
    }
    const ready = await boardReady;
    if (!ready || !alive || (replay && !boardState.replay)) return;
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

  function submit(move) {
    if (!state || replay) return;
    if (pendingMove) return;
    const id = `move-${++moveCount}`;
    if (send({ type: "move", move, version: state.version, id })) pendingMove = id;
  }

  /** A visitor without a nickname tried to chat or play: say so, and show them the box. */
  function askNickname() {
    const text = "Pick a nickname to chat and play: type it in the box under Seats.";
    addLine("error", text);
    ctx.toast(text, "error");
    const box = seatsBox.querySelector("input[name=nickname]");
    if (box) box.focus();
  }

  // --- seats and administration --------------------------------------------------------------
  /** Whether this page may set up the table (bots, options, start): the server lets anyone
   * seated do it, and anyone while no person sits (the room's creator too; its commands work). */
  function manager() {
    if (!nickname || !state) return false;
    return state.seat !== null || !state.seats.some((x) => x.player && !x.bot);
  }

  function drawSeats() {
    const finished = state.status === "finished";
    fill(seatsBox, h("ul", { class: "seat-list" }, state.seats.map((seat) => {
      const mine = state.seat === seat.index;
      const toMove = state.to_move === seat.index && state.status === "playing";
      const who = seat.player
        ? h("span", { class: "occupant" }, playerLink(seat.player), seat.bot ? h("span", { class: "tag" }, "bot") : null)
        : h("span", { class: "occupant free" }, "free");
      const buttons = [];
      if (!finished && !seat.player && nickname) {
        buttons.push(h("button", { type: "button", "data-action": "join",
          onclick: () => send({ type: "join", seat: seat.index }) }, "Sit here"));
      }
      if (!finished && (!seat.player || (seat.bot && state.status === "waiting")) && manager()) {
        buttons.push(h("button", { type: "button", "data-action": "bot",
          onclick: () => send({ type: "bot", seat: seat.index, level: botLevel.value }) },
        seat.bot ? "Change bot" : "Seat bot"));
      }
      if (seat.bot && state.status === "waiting" && manager()) {
        buttons.push(h("button", { type: "button", "data-action": "remove-bot",
          onclick: () => send({ type: "leave", seat: seat.index }) }, "Remove"));
      }
      return h("li", {
        class: `seat${mine ? " mine" : ""}${toMove ? " to-move" : ""}`,
        "data-seat": seat.index, "data-seat-name": seat.name,
      },
      h("span", { class: `dot ${seat.connected ? "on" : "off"}`,
        title: seat.connected ? "connected" : "not connected" }),
      h("span", { class: "seat-name" }, seat.name),
      who,
      mine ? h("span", { class: "tag you" }, "you") : null,
      toMove ? h("span", { class: "tag turn" }, "to move") : null,
      seat.out ? h("span", { class: "tag out", title: "a bot plays this seat; it ranks last" },
        seat.out === "time" ? "out of time" : "away: out") : null,
      finished && seat.rematch ? h("span", { class: "tag" }, "rematch?") : null,
      clocks.span(seat.index),
      h("span", { class: "seat-buttons" }, buttons));
    })));
    if (!nickname) {
      const input = h("input", { name: "nickname", placeholder: "nickname", maxlength: 20,
        "aria-label": "nickname" });
      seatsBox.append(h("form", { class: "row", onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          nickname = await chooseNickname(input.value.trim());
          ctx.renderWho(nickname);
          conn.close();
          location.reload();
        } catch (err) {
          ctx.toast(err.message, "error");
        }
      } }, input, h("button", { type: "submit", class: "primary" }, "Play under this name")));
    }
  }

  function drawAdmin() {
    const st = state.status;
    // A seat that dropped out is played by a bot: its person can neither leave nor resign it.
    const seated = state.seat !== null && !state.seats[state.seat].out;
    const buttons = [];
    if (st !== "finished" && manager()) buttons.push(botLevel);
    if (st === "waiting" && manager()) {
      buttons.push(h("button", { type: "button", "data-action": "rated",
        title: "rated games change the players' ratings",
        onclick: () => send({ type: "rated", value: !state.rated }) },
      state.rated ? "Make casual" : "Make rated"));
      buttons.push(h("button", { type: "button", class: "primary", "data-action": "start",
        onclick: () => send({ type: "start" }) }, "Start"));
    }
    if (st !== "finished" && seated) {
      buttons.push(h("button", { type: "button", "data-action": "leave",
        onclick: () => {
          // No empty seat in a running game: the server counts leaving as resigning.
          if (st !== "playing" || confirm("Leaving a running game resigns it. Leave?")) {
            send({ type: "leave" });
          }
        } }, "Leave seat"));
    }
    const away = state.absent;
    if (st === "playing" && seated && away && away.claim_in_ms === 0 && away.seat !== state.seat) {
      buttons.push(h("button", { type: "button", class: "primary", "data-action": "claim",
        onclick: () => send({ type: "claim" }) }, "Claim the game"));
      buttons.push(h("button", { type: "button", "data-action": "take-over",
        onclick: () => send({ type: "bot", seat: away.seat, level: botLevel.value }) },
      `Give ${away.player}'s seat to a bot`));
    }
    if (st === "playing" && seated) {
      buttons.push(h("button", { type: "button", class: "danger", "data-action": "resign",
        onclick: () => {
          if (confirm("Give up this game?")) send({ type: "resign" });
        } }, "Resign"));
    }
    buttons.push(h("button", { type: "button", "data-action": "who",
      onclick: () => send({ type: "who" }) }, "Who is here"));
    buttons.push(h("button", { type: "button", "data-action": "help",
      onclick: () => send({ type: "help" }) }, "Commands"));
    if (st !== "waiting" && state.moves.length) {
      buttons.push(h("button", { type: "button", "data-action": "replay",
        onclick: () => startReplay() }, st === "finished" ? "Replay" : "Replay so far"));
    }
    patch(adminBox, buttons);  // kept where unchanged: a press as a state arrives still clicks
  }

  async function drawOptions() {
    const entries = Object.entries(state.options || {});
    const control = state.clock ? state.clock.control : "";
    let spec = [];
    try {
      spec = (await games()).find((g) => g.name === state.game)?.options || [];
    } catch (_) { /* leave the plain list */ }
    if (state.status !== "waiting" || !manager()) {
      const shown = entries.map(([k, v]) => optionWords(spec.find((o) => o.name === k), k, v));
      shown.unshift(control ? `clock ${control}` : "untimed");
      fill(optionsBox, h("p", { class: "small muted", "data-testid": "room-options" },
        shown.join(" · ")));
      return;
    }
    const clockBox = clockField(control);
    const clockInput = clockBox.querySelector("input");
    clockInput.addEventListener("change", () => {
      send({ type: "clock", control: clockInput.value.trim() || null });
    });
    const clockRow = h("div", { class: "option" }, h("label", { for: "opt-clock" }, "clock"),
      clockBox, h("span", { class: "doc" }, CLOCK_DOC));
    const fields = spec.map((opt) => {
      const field = optionField({ ...opt, default: state.options[opt.name] ?? opt.default });
      const input = field.querySelector("[name]");
      input.addEventListener("change", () => {
        const value = opt.type === "bool" ? input.checked
          : (opt.type === "int" ? Number(input.value) : input.value);
        send({ type: "option", key: opt.name, value });
      });
      return field;
    });
    fill(optionsBox, h("details", {}, h("summary", {}, "Options"), clockRow, fields));
  }

  // --- moves, status, result -----------------------------------------------------------------
  function seatName(index) {
    if (index === null || index === undefined) return "chance";
    return state.seats[index] ? state.seats[index].name : `seat ${index + 1}`;
  }

  /** One line per turn (the server numbers each move's turn: `turn`), its number shown whole;
   * in a replay the turn holding the step shown is current and a click goes to its end. */
  function drawMoves() {
    const at = replay ? replay.step : state.moves.length;
    const turns = groupTurns(state.moves);
    fill(movesList, turns.map((t) => {
      const current = at > t.start && at <= t.end;
      return h("li", {
        class: `${t.seat === null ? "chance" : ""}${current ? " current" : ""}`,
        "data-index": t.end, "data-turn": t.turn,
        onclick: replay ? () => replay.go(t.end) : undefined,
      }, h("span", { class: "num" }, `${t.turn}.`), " ",
      h("span", { class: "who", title: seatName(t.seat) }, playerName(t.seat)), " ",
      h("span", { class: "notation" }, turnWords(t.moves).map((word, k) => [k ? " " : "",
        h("span", { class: "step", "data-notation": t.moves[k].move }, word)])));
    }));
    const current = movesList.querySelector(".current");
    if (replay && at === 0) movesList.scrollTop = 0;
    else if (current) scrollWithin(movesList, current);
    else movesList.scrollTop = movesList.scrollHeight;
  }

  function playerName(index) {
    return index === null || index === undefined ? "chance" : personName(state.seats, index);
  }

  function drawStatus() {
    if (replay) {
      statusLine.textContent = `Replay: after move ${replay.step} of ${replay.total}`;
      return;
    }
    const st = state.status;
    if (st === "waiting") {
      const free = state.seats.filter((x) => !x.player).map((x) => x.name);
      if (!nickname) {
        statusLine.textContent = free.length
          ? `Waiting for players (${free.join(", ")}): pick a nickname below to sit down.`
          : "Every seat is taken: the players will start the game. You are watching.";
      } else if (!manager()) {
        statusLine.textContent = free.length
          ? `Waiting for players (${free.join(", ")}): sit down to play.`
          : "Every seat is taken: waiting for the players to start. You are watching.";
      } else {
        statusLine.textContent = free.length
          ? `Waiting for players (${free.join(", ")}): sit down, seat a bot, then Start.`
          : "Every seat is taken: press Start (or type /start).";
      }
    } else if (st === "playing") {
      const away = state.absent;
      const mySeat = state.seat !== null ? state.seats[state.seat] : null;
      if (mySeat && mySeat.out) {
        statusLine.textContent = "You are out of this game: a bot plays your seat.";
      } else if (away && away.seat !== state.seat) {
        statusLine.textContent = away.claim_in_ms > 0
          ? `${away.player} is away; if they are not back in ${Math.ceil(away.claim_in_ms / 1000)} s, you may claim the game.`
          : `${away.player} has been away too long: claim the game or give the seat to a bot.`;
      } else if (state.to_move === null || state.to_move === undefined) {
        statusLine.textContent = "Chance is drawing…";
      } else if (state.to_move === state.seat) {
        statusLine.textContent = `Your move (${seatName(state.seat)}).`;
      } else {
        const seat = state.seats[state.to_move];
        fill(statusLine, `${seat.name} to move`,
          seat.player ? [" (", playerLink(seat.player), ")"] : "", ".");
      }
    } else {
      statusLine.textContent = "Game over.";
    }
    statusLine.classList.toggle("your-turn", st === "playing" && state.to_move === state.seat);
  }

  function drawResult() {
    if (state.status !== "finished") {
      resultBox.hidden = true;
      return;
    }
    resultBox.hidden = false;
    const changes = (state.rating_changes || []).map((c) => h("li", { "data-seat": c.seat },
      playerLink(c.player), ` ${c.before} → ${c.after} `,
      h("strong", {}, `(${delta(c.before, c.after)})`)));
    fill(resultBox, h("strong", { class: "result-words", "data-testid": "result-words" },
      resultWords(state)),
    state.outcome ? h("p", { class: "small outcome", "data-testid": "outcome" },
      outcomeWords(state)) : null,
      changes.length ? h("div", { class: "rating-changes", "data-testid": "rating-changes" },
        h("span", { class: "small muted" }, "Ratings:"), h("ul", {}, changes)) : null,
      rematchBox());
  }

  /** After the end: ask for a rematch, see who asked, or follow the link to it. */
  function rematchBox() {
    if (state.rematch) {
      return h("p", {}, h("a", { class: "button primary", href: `#/room/${state.rematch}`,
        "data-action": "to-rematch" }, "Go to the rematch"));
    }
    const mine = state.seat !== null ? state.seats[state.seat] : null;
    if (!mine || mine.bot) {
      return state.rematch_of ? h("p", { class: "small muted" }, "This game is a rematch.") : null;
    }
    const waiting = state.seats.filter((x) => x.player && !x.bot && !x.rematch).map((x) => x.player);
    return h("p", {}, h("button", { type: "button", class: "primary", "data-action": "rematch",
      disabled: mine.rematch, onclick: () => send({ type: "rematch" }) },
    mine.rematch ? "Rematch asked" : "Rematch"),
    mine.rematch && waiting.length
      ? h("span", { class: "small muted" }, ` waiting for ${waiting.join(", ")}`) : null);
  }

  // --- chat ----------------------------------------------------------------------------------
  function addLine(kind, text, from) {
    const atBottom = chatLog.scrollTop + chatLog.clientHeight >= chatLog.scrollHeight - 20;
    chatLog.append(h("div", { class: `line ${kind}` },
      from ? h("span", { class: "from" }, playerLink(from), ": ") : null,
      kind === "info" ? columns(text) : h("span", { class: "text" }, text)));
    while (chatLog.childElementCount > 300) chatLog.firstElementChild.remove();
    if (atBottom) chatLog.scrollTop = chatLog.scrollHeight;
  }

  // --- replay --------------------------------------------------------------------------------
  function startReplay() {
    if (replay || !state) return;
    replay = new Replay(roomId, state, {
      show: async (boardState) => {
        await showBoard(boardState);
        drawMoves();
        drawStatus();
      },
      error: (text) => ctx.toast(text, "error"),
      close: () => {
        replay = null;
        replayBar.hidden = true;
        drawMoves();
        drawStatus();
        if (state) showBoard(state);
      },
    });
    replayBar.hidden = false;
    replay.mount(replayBar);
    replay.go(state.moves.length);
  }

  return {
    destroy() {
      alive = false;
      clocks.stop();
      clearTurn();
      conn.close();
      if (board) board.destroy();
      if (replay) replay.destroy();
      delete window.gamehall;
    },
  };
}

/** The moves in turns, from each move's `turn` (moves without one are a turn each): the turn's
 * number, its player (the seat of its first player move; null: only chance), its moves and the
 * steps it spans (start exclusive, end inclusive). */
export function groupTurns(moves) {
  const turns = [];
  moves.forEach((m, i) => {
    const number = m.turn ?? (turns.length ? turns[turns.length - 1].turn + 1 : 1);
    let t = turns[turns.length - 1];
    if (!t || t.turn !== number) {
      t = { turn: number, seat: null, moves: [], start: i, end: i };
      turns.push(t);
    }
    t.moves.push(m);
    t.end = i + 1;
    if (t.seat === null && m.seat !== null) t.seat = m.seat;
  });
  return turns;
}

/** A turn's moves as written on its line, one entry per move; a word that starts several moves
 * in a row is written once ("roll 1 3 4" for "roll 1", "roll 3", "roll 4"). */
export function turnWords(moves) {
  const words = [];
  let lead = null;
  for (const m of moves) {
    const [first, ...rest] = String(m.move).split(" ");
    if (rest.length && first === lead) words.push(rest.join(" "));
    else words.push(String(m.move));
    lead = rest.length ? first : null;
  }
  return words;
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
