// The end of a game and the players in words, for people: names rather than seat labels, never
// raw returns. Shared by the room and the lobby.

import { playerWords, say, t } from "./i18n.js";

/** The seats' names the games give (identifiers the server sends in states), in the page's
 * language; another name stays as it is. */
const SEAT_WORDS = ["first", "second", "humans", "beasts", "north", "south", "red", "blue",
  "yellow", "orange"];

/** A seat's name as the page's reader says it. Given the seat itself (a state's or a lobby
 * line's, or `{name, name_key}` from /api/games' `seat_keys`): by the key the server sends
 * beside its name, the game's own word; given only the name (`first`, `north`, a Hau La
 * colour …, as the boards' views name seats), or a key the catalogue lacks: the page's word. */
export function seatWord(seat) {
  if (seat && typeof seat === "object") {
    const said = say(seat, "name");
    return said !== seat.name ? said : seatWord(seat.name);
  }
  return SEAT_WORDS.includes(seat) ? t(`page.seat.${seat}`) : seat;
}

/** Names as one phrase: "ann and bea". */
function both(names) {
  return names.join(` ${t("page.words.and")} `);
}

/** The end of a game in words, for the page's reader: "You won 12 to 11", "You lost",
 * "bea won 12 to 11", "Draw" — names, never seat labels or raw returns. The score is the game's
 * own (`scores` in the state: points, pearls), the winner's first, when the rules ended it. */
export function resultWords(st) {
  const result = st.result || [];
  if (!result.length) return t("page.words.over");
  const best = Math.max(...result);
  const winners = result.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
  const name = (i) => personName(st.seats, i);
  const shown = (x) => String(Number.isInteger(x) ? x : Math.round(x * 100) / 100);
  const score = (first) => {
    // a resignation or a clock decides against the score: then the score would mislead
    if (!st.scores || st.scores.length !== result.length) return "none";
    if (st.ended_by && st.ended_by !== "rules") return "none";
    const order = [first, ...st.scores.map((_, i) => i).filter((i) => i !== first)];
    return order.map((i) => shown(st.scores[i])).join(` ${t("page.words.to")} `);
  };
  const me = st.seat;
  if (winners.length === result.length) return t("page.words.draw", { score: score(me ?? 0) });
  if (me !== null && me !== undefined && st.seats[me]) {
    // the winner's points first, for the loser too ("You lost 50 to 31"), as a watcher reads it
    if (!winners.includes(me)) return t("page.words.you_lost", { score: score(winners[0]) });
    return winners.length === 1 ? t("page.words.you_won", { score: score(me) })
      : t("page.words.you_won_with", { names: both(winners.filter((i) => i !== me).map(name)) });
  }
  if (winners.length === 1) {
    return t("page.words.won", { name: name(winners[0]), score: score(winners[0]) });
  }
  return t("page.words.won_many", { names: both(winners.map(name)) });
}

/** Who seat `i` is for people: the player's name where one sits (with the seat's name when
 * another seat has the same player: two "random bot"s), else the seat's name. */
export function personName(seats, i) {
  const seat = seats[i];
  if (!seat) return t("page.words.seat", { n: i + 1 });
  if (!seat.player) return seat.name;
  const shared = seats.some((x, k) => k !== i && x.player === seat.player);
  const name = playerWords(seat.player);
  return shared ? `${name} (${seatWord(seat)})` : name;
}

/** The game's sentence on how it ended, in the page's language (`outcome_key`/`outcome_args`
 * by say), with the players' names where it names a seat as the one who won, resigned or ran
 * out of time ("bea resigned: ann wins"); the game's own terms (a colour, a side) stay. */
export function outcomeWords(st) {
  const text = String(st.outcome || "");
  const names = new Map();
  st.seats.forEach((seat, i) => { if (seat.player) names.set(seat.name, personName(st.seats, i)); });
  if (st.outcome_key) {
    return say({ outcome: namedText(text, names), outcome_key: st.outcome_key,
      outcome_args: namedArgs(st.outcome_args || {}, names) }, "outcome");
  }
  return namedText(text, names);
}

/** A message's arguments with each seat (a nested `game.seat`) someone sits in as that
 * person's name. */
function namedArgs(args, names) {
  const out = {};
  for (const [k, v] of Object.entries(args)) {
    if (v && typeof v === "object" && typeof v.key === "string") {
      const seat = v.args && v.args.seat;
      if (v.key === "room.person_seat") out[k] = v;  // a shared name with its seat: as it is
      else {
        out[k] = v.key === "game.seat" && names.has(seat) ? names.get(seat)
          : { key: v.key, args: namedArgs(v.args || {}, names) };
      }
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** The English sentence with seat names as players' names (a server without keys). */
function namedText(text, names) {
  if (!names.size) return text;
  const labels = [...names.keys()].map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const after = "(?= (resigned|ran out|was away|dropped out|wins\\b|and |\\())";
  const re = new RegExp(`\\((${labels})\\)|\\b(${labels})${after}`, "g");
  return text.replace(re, (whole, inParens, bare) => (inParens
    ? `(${names.get(inParens)})` : names.get(bare)));
}
