// Challenges (the bot API's, docs/bot-api.md): a person challenges a bot account from its
// profile (the game among those it plays, the game's options, clock, rated, seat), then waits
// for the answer: the room opens when the bot accepts, its reason shows when it declines. A
// person a bot challenges sees it above the page and accepts or declines it.
//
// The page learns the answer by asking for the challenge every POLL_MS (GET
// /api/challenge/{id}): short requests, far inside the per-token limit, that survive a dropped
// connection or a restarted server without any stream to keep alive.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { clockDoc, clockField, optionField, optionWords, readOptions } from "./lobby.js";
import { playerLink } from "./links.js";
import { say, t } from "./i18n.js";
import { seatWord } from "./words.js";

const POLL_MS = 1500;

/** Whether the room of `state` was made by an accepted challenge: its two seats (marked
 * `challenged`), options, clock and rating stay as agreed, and the server refuses to change them
 * (409 challenge_terms), so the page offers no control for them. */
export function agreedInChallenge(state) {
  return state.seats.some((s) => s.challenged);
}

/** In a challenge's room: whether a hall bot may go anywhere (a free or bot seat before the
 * start, the seat of an absent player the challenge did not seat), so the bot menu shows then. */
export function botUse(state, takeOver) {
  if (state.status === "waiting") return state.seats.some((s) => !s.challenged && (!s.player || s.bot));
  return takeOver && !state.seats[state.absent.seat].challenged;
}
const INCOMING_MS = 10000;

/** The Challenge card of another player's profile (`data`), or null when the page may not
 * challenge them: a bot account, or anyone with an account when this player is a bot account
 * (checked by the server too). `alive()` says whether the profile is still shown. */
export function challengeCard(data, ctx, alive) {
  if (!ctx.nickname) return null;
  const box = h("section", { class: "card", "data-testid": "challenge", hidden: true });
  if (data.bot_account) {
    drawChallenge(box, data, ctx, alive);
    return box;
  }
  if (!ctx.account || !data.account) return null;
  api("/api/bot/account").then((me) => {
    if (me.bot_account && alive()) drawChallenge(box, data, ctx, alive);
  }).catch(() => { /* not a bot account: people meet people in rooms */ });
  return box;
}

async function drawChallenge(box, data, ctx, alive) {
  let list;
  let mine;
  try {
    [list, mine] = await Promise.all([games(), api("/api/challenge")]);
  } catch (err) {
    box.hidden = false;
    fill(box, h("p", { class: "error" }, say(err)));
    return;
  }
  if (!alive()) return;
  box.hidden = false;
  const playable = data.bot_account ? list.filter((g) => data.bot_games.includes(g.name)) : list;
  if (!playable.length) {
    fill(box, h("h2", {}, t("page.challenge.title")), h("p", { class: "muted" },
      t("page.challenge.no_game", { player: data.nickname })));
    return;
  }
  const open = mine.out.find((c) => c.dest.name.toLowerCase() === data.nickname.toLowerCase());
  const form = challengeForm(data, playable, ctx, (made) => waitAnswer(box, made, ctx, alive, list));
  form.hidden = true;
  fill(box, h("div", { class: "row spread" }, h("h2", {}, t("page.challenge.title")),
    h("button", { type: "button", class: "primary", "data-action": "challenge",
      onclick: () => { form.hidden = false; } }, t("page.challenge.button", { player: data.nickname }))),
  h("p", { class: "small muted" }, data.bot_account
    ? t("page.challenge.program", { player: data.nickname, games: playable.map((g) => g.title).join(", ") })
    : t("page.challenge.person", { player: data.nickname })),
  form);
  if (open) waitAnswer(box, open, ctx, alive, list);
}

/** The challenge's form: the game (its options follow it), clock, rated, the seat. */
function challengeForm(data, list, ctx, sent) {
  const select = h("select", { name: "game", "aria-label": t("page.lobby.game") },
    list.map((g) => h("option", { value: g.name }, g.title)));
  const optionsBox = h("div", { class: "options" });
  const seat = h("select", { name: "seat", "aria-label": t("page.challenge.your_seat") });
  const game = () => list.find((g) => g.name === select.value);
  const drawSeats = () => fill(seat, h("option", { value: "" }, t("page.challenge.random_seat")),
    seatsOf(game(), readOptions(optionsBox, game())).map((name, i) =>
      h("option", { value: String(i) }, t("page.challenge.you_play",
        { seat: seatWord({ name, name_key: (game().seat_keys || {})[name] }) }))));
  const drawOptions = () => {
    fill(optionsBox, game().options.map(optionField));
    drawSeats();
  };
  select.addEventListener("change", drawOptions);
  optionsBox.addEventListener("change", drawSeats);
  if (list.length) drawOptions();
  const clockBox = clockField("1d");  // every challenge's game has a clock: the hall's default
  const rated = h("select", { name: "rated", "aria-label": t("page.lobby.rated_or_casual") },
    h("option", { value: "" }, t("page.challenge.rated_if_both")),
    h("option", { value: "true" }, t("page.lobby.rated")), h("option", { value: "false" }, t("page.lobby.casual")));
  return h("form", { class: "create-form challenge-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const body = { game: game().name, options: readOptions(optionsBox, game()),
      clock: clockBox.querySelector("input").value.trim() || null };
    if (rated.value) body.rated = rated.value === "true";
    if (seat.value) body.seat = Number(seat.value);
    try {
      sent(await api(`/api/challenge/${encodeURIComponent(data.nickname)}`,
        { method: "POST", body }));
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } },
  h("div", { class: "row" }, h("label", {}, t("page.lobby.game_label"), select), rated, seat,
    h("button", { type: "submit", class: "primary", "data-action": "send-challenge" }, t("page.room.send"))),
  h("div", { class: "option" }, h("label", { for: "opt-clock" }, t("page.lobby.clock")), clockBox,
    h("span", { class: "doc" }, clockDoc())),
  optionsBox);
}

/** The seats of `game` with `options` (an option may change them: Hau La's players), as the
 * server lists them in /api/games (`seats_for`). */
function seatsOf(game, options) {
  for (const [name, value] of Object.entries(options)) {
    const seats = (game.seats_for || {})[name]?.[String(value)];
    if (seats) return seats;
  }
  return game.seats;
}

/** The challenge sent: waiting (cancel), then the room (accepted) or the answer in words
 * (`list`: the games of /api/games). */
function waitAnswer(box, made, ctx, alive, list) {
  const line = h("p", { "data-testid": "challenge-status" },
    t("page.challenge.sent", { player: made.dest.name }));
  const cancel = h("button", { type: "button", "data-action": "cancel-challenge",
    onclick: async () => {
      try {
        await api(`/api/challenge/${encodeURIComponent(made.id)}/cancel`, { method: "POST" });
      } catch (err) {
        ctx.toast(say(err), "error");
      }
    } }, t("page.challenge.cancel"));
  const pending = h("div", { class: "pending-challenge", "data-challenge": made.id },
    line, h("p", { class: "small muted" }, challengeWords(made, list)), cancel);
  box.querySelector(".challenge-form")?.setAttribute("hidden", "");
  box.append(pending);
  const poll = async () => {
    if (!alive() || !pending.isConnected) return;
    let now;
    try {
      now = await api(`/api/challenge/${encodeURIComponent(made.id)}`);
    } catch (_) {
      setTimeout(poll, POLL_MS * 2);  // unreachable for a moment: ask again, later
      return;
    }
    if (now.status === "created") {
      setTimeout(poll, POLL_MS);
    } else if (now.status === "accepted" && now.room) {
      location.hash = `#/room/${now.room}`;
    } else {
      cancel.remove();
      pending.dataset.status = now.status;
      line.textContent = now.status === "declined"
        ? t("page.challenge.declined", { player: made.dest.name, reason: say(now, "reason_text") || now.reason })
        : (now.reason === "expired" ? t("page.challenge.expired", { reason: say(now, "reason_text") })
          : t("page.challenge.canceled"));
    }
  };
  setTimeout(poll, POLL_MS);
}

/** A challenge in words: the game's title, the options it sets, clock, rated (`list`: the
 * games of /api/games, for their titles and options' words). */
function challengeWords(c, list) {
  const game = list.find((g) => g.name === c.game);
  const spec = (k) => game?.options.find((o) => o.name === k) || null;
  const parts = [game ? game.title : c.game,
    ...Object.entries(c.options || {}).map(([k, v]) => optionWords(spec(k), k, v)),
    c.clock ? t("page.lobby.clock_line", { control: c.clock }) : t("page.lobby.untimed")];
  if (c.rated !== null && c.rated !== undefined) parts.push(t(c.rated ? "page.lobby.rated" : "page.lobby.casual"));
  return parts.join(" · ");
}

/** Challenges to this player (a bot challenging a person), shown above the page with accept
 * and decline: looked for on every page the player opens and every INCOMING_MS while an
 * account is signed in (only accounts can be challenged). `set(ctx)` after each sign-in. */
export function watchIncoming() {
  const bar = h("div", { class: "incoming", "data-testid": "incoming", hidden: true });
  document.querySelector("header.top").after(bar);
  let account = false;
  const check = async () => {
    if (!account) {
      drawIncoming(bar, { in: [], reasons: [] }, []);
      return;
    }
    try {
      const [mine, list] = await Promise.all([api("/api/challenge"), games()]);
      if (account) drawIncoming(bar, mine, list);
    } catch (_) { /* shown again at the next check that reaches the server */ }
  };
  const tick = () => {
    if (document.visibilityState !== "hidden") check();
    setTimeout(tick, INCOMING_MS);
  };
  setTimeout(tick, INCOMING_MS);
  return { set(ctx) { account = ctx.account; check(); } };
}

/** The challenges to this player (`mine`: GET /api/challenge, with the fixed reasons a decline
 * picks from), each with Accept and Decline; drawn again only when they change, so a reason
 * being chosen is not reset by the next check. */
function drawIncoming(bar, mine, list) {
  const ids = mine.in.map((c) => c.id).join(" ");
  if (bar.dataset.ids === ids) return;
  bar.dataset.ids = ids;
  bar.hidden = !mine.in.length;
  fill(bar, mine.in.map((c) => {
    const reason = h("select", { name: "decline-reason", "aria-label": t("page.challenge.reason") },
      mine.reasons.map((r) => h("option", { value: r.reason }, say(r, "text"))));
    const answer = (how, body) => async () => {
      try {
        const done = await api(`/api/challenge/${encodeURIComponent(c.id)}/${how}`,
          { method: "POST", body });
        item.remove();
        if (done.room) location.hash = `#/room/${done.room}`;
      } catch (err) {
        item.replaceChildren(say(err));
      }
    };
    const item = h("div", { class: "card row", "data-challenge": c.id },
      playerLink(c.challenger.name, { botAccount: c.challenger.bot_account }),
      ` ${t("page.challenge.challenges_you", { terms: challengeWords(c, list) })} `,
      h("button", { type: "button", class: "primary", "data-action": "accept-challenge",
        onclick: answer("accept") }, t("page.challenge.accept")),
      h("button", { type: "button", "data-action": "decline-challenge",
        onclick: () => answer("decline", { reason: reason.value })() }, t("page.challenge.decline")), reason);
    return item;
  }));
}
