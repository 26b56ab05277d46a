// The room's move list: one line per turn, who played it and its moves as written. Kept apart
// from room.js (which calls drawMoves with its `room`) so the words a move is written in grow here.

import { h, fill, scrollWithin } from "./dom.js";
import { personName, seatWord } from "./words.js";
import { t } from "./i18n.js";

export function seatName(state, index) {
  if (index === null || index === undefined) return t("page.moves.chance");
  return state.seats[index] ? state.seats[index].name : t("page.words.seat", { n: index + 1 });
}

function playerName(state, index) {
  return index === null || index === undefined ? t("page.moves.chance") : personName(state.seats, index);
}

/** One line per turn (the server numbers each move's turn: `turn`), its number shown whole;
 * in a replay the turn holding the step shown is current and a click goes to its end. A turn's
 * moves are written in the board's words where its module has them (Hau La), else in notation. */
export function drawMoves(room) {
  const { replay } = room;
  // a turn being composed: its steps at the end, marked as not sent yet
  const state = replay || !room.composer ? room.state : room.composer.shown(room.state);
  const sent = room.state.moves.length;
  const { movesList } = room.els;
  const at = replay ? replay.step : state.moves.length;
  const turns = groupTurns(state.moves);
  const words = (room.board && room.board.words) || turnWords;
  fill(movesList, turns.map((turn) => {
    const current = at > turn.start && at <= turn.end;
    return h("li", {
      class: `${turn.seat === null ? "chance" : ""}${current ? " current" : ""}`,
      "data-index": turn.end, "data-turn": turn.turn,
      onclick: replay ? () => room.replay.go(turn.end) : undefined,
    }, h("span", { class: "num" }, `${turn.turn}.`), " ",
    h("span", { class: "who", title: seatWord(seatName(state, turn.seat)) }, playerName(state, turn.seat)), " ",
    h("span", { class: "notation" }, words(turn.moves).map((word, k) => [k ? " " : "",
      h("span", { class: turn.start + k >= sent && !replay ? "step pending" : "step",
        "data-notation": turn.moves[k].move }, word)])));
  }));
  const current = movesList.querySelector(".current");
  if (replay && at === 0) movesList.scrollTop = 0;
  else if (current) scrollWithin(movesList, current);
  else movesList.scrollTop = movesList.scrollHeight;
}

/** The moves in turns, from each move's `turn` (moves without one are a turn each): the turn's
 * number, its player (the seat of its first player move, or of the seat a chance move was drawn
 * `for`: a Hotu Matua roll with no step after it; null: only chance), its moves and the
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
    const who = m.seat ?? m.for ?? null;  // a chance move drawn for a seat (a roll) is its turn's
    if (t.seat === null && who !== null) t.seat = who;
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
