// Tournaments: the list (upcoming, running, finished) with a form to create one (#/tournaments),
// a tournament's page (#/tournament/ID: its countdown, join and withdraw, standings with the
// tiebreaks named and explained, the games in play, the winner), and a reminder shown on every
// page a few minutes before a tournament one has joined begins.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { clockField, optionField, readOptions } from "./lobby.js";
import { playerLink } from "./links.js";
import { say, t } from "./i18n.js";

const POLL_MS = 2000;
const REMIND_MS = 5 * 60 * 1000;  // how long before its start a joined tournament is recalled

/** Milliseconds from the server's `now` to `iso` (the server's clock, not this machine's). */
function until(iso, now) {
  return Date.parse(iso) - Date.parse(now);
}

/** A countdown in words: "3 min 20 s", "2 h 5 min", "4 d 3 h". */
export function countdown(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 86400) return t("page.tournament.in_days", { d: Math.floor(s / 86400), h: Math.floor(s / 3600) % 24 });
  if (s >= 3600) return t("page.tournament.in_hours", { h: Math.floor(s / 3600), m: Math.floor(s / 60) % 60 });
  return t("page.tournament.in_minutes", { m: Math.floor(s / 60), s: s % 60 });
}

function describe(line) {
  const system = t(`page.tournament.system.${line.system}`);
  const length = line.system === "swiss" ? t("page.tournament.rounds_n", { n: line.rounds })
    : line.system === "arena" ? t("page.tournament.minutes_n", { n: line.minutes }) : "";
  return [system, length, line.clock, line.seats > 2 ? t("page.tournament.seats_n", { n: line.seats }) : "",
    line.rated ? t("page.lobby.rated") : t("page.lobby.casual")].filter(Boolean).join(" · ");
}

/** #/tournaments: the three lists, and the form to create one. */
export function showTournaments(root, ctx) {
  const view = { alive: true, timer: null };
  const lists = h("section", { class: "card tournaments", "data-testid": "tournament-list" });
  const create = h("section", { class: "card create", "aria-label": t("page.tournament.create") });
  fill(root, h("div", { class: "lobby" }, create, lists));
  drawCreate(create, ctx);
  const load = async () => {
    try {
      const data = await api("/api/tournaments");
      if (!view.alive) return;
      fill(lists, h("h1", {}, t("page.tournament.title")),
        ["upcoming", "running", "finished"].map((key) => [h("h2", {}, t(`page.tournament.list.${key}`)),
          data[key].length ? h("ul", { class: "game-list", "data-testid": `tournaments-${key}` },
            data[key].map((line) => h("li", {},
              h("a", { href: `#/tournament/${line.id}` }, line.name), " ",
              h("span", { class: "muted small" }, `${line.game} · ${describe(line)} · `,
                t("page.tournament.players_n", { n: line.players }),
                key === "upcoming" ? ` · ${countdown(until(line.starts_at, data.now))}` : ""),
              line.joined ? h("span", { class: "tag" }, t("page.tournament.joined")) : null)))
            : h("p", { class: "muted" }, t("page.tournament.none"))]));
    } catch (err) {
      if (view.alive) fill(lists, h("p", { class: "error" }, say(err)));
    }
    if (view.alive) view.timer = setTimeout(load, POLL_MS * 5);
  };
  load();
  return { destroy() { view.alive = false; clearTimeout(view.timer); } };
}

async function drawCreate(box, ctx) {
  if (!ctx.account) {
    fill(box, h("h2", {}, t("page.tournament.create")),
      h("p", { class: "muted", "data-testid": "create-needs-account" }, t("page.tournament.needs_account")));
    return;
  }
  let list;
  try {
    list = await games();
  } catch (err) {
    fill(box, h("p", { class: "error" }, say(err)));
    return;
  }
  fill(box, h("h2", {}, t("page.tournament.create")), createForm(list, ctx));
}

function field(label, id, input, doc = null) {
  input.id = id;
  return h("div", { class: "option" }, h("label", { for: id }, label), input,
    doc ? h("span", { class: "doc" }, doc) : null);
}

/** The form: name, game and its options, clock, system and its length, seats, start, rated,
 * open to bots, password. */
function createForm(list, ctx) {
  const game = h("select", { name: "game" }, list.map((g) => h("option", { value: g.name }, g.title)));
  const optionsBox = h("div", { class: "options" });
  const drawOptions = () => fill(optionsBox, list.find((g) => g.name === game.value).options.map(optionField));
  game.addEventListener("change", drawOptions);
  drawOptions();
  const name = h("input", { type: "text", name: "name", maxlength: 80, required: true });
  const clock = clockField("5+3");
  const system = h("select", { name: "system" }, ["arena", "swiss", "round_robin"].map((s) =>
    h("option", { value: s }, t(`page.tournament.system.${s}`))));
  const length = h("input", { type: "number", name: "length", min: 1, max: 10080, value: 60 });
  const lengthDoc = h("span", {});
  const syncLength = () => {
    lengthDoc.textContent = t(system.value === "swiss" ? "page.tournament.length_rounds"
      : "page.tournament.length_minutes");
    length.disabled = system.value === "round_robin";
    if (system.value === "swiss" && Number(length.value) > 30) length.value = 5;
  };
  system.addEventListener("change", syncLength);
  syncLength();
  const seats = h("select", { name: "seats" }, [2, 3, 4].map((n) => h("option", { value: n }, String(n))));
  const start = h("input", { type: "datetime-local", name: "starts_at" });
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const bots = h("input", { type: "checkbox", name: "bots" });
  const password = h("input", { type: "password", name: "password", maxlength: 100, autocomplete: "new-password",
    placeholder: t("page.tournament.password_none") });
  return h("form", { class: "create-form", "data-testid": "tournament-form", onsubmit: async (ev) => {
    ev.preventDefault();
    const spec = list.find((g) => g.name === game.value);
    const body = { name: name.value.trim(), game: spec.name, options: readOptions(optionsBox, spec),
      clock: clock.querySelector("input").value.trim() || null, system: system.value,
      seats: Number(seats.value), rated: rated.checked, bots: bots.checked };
    if (system.value === "swiss") body.rounds = Number(length.value);
    if (system.value === "arena") body.minutes = Number(length.value);
    if (start.value) body.starts_at = new Date(start.value).toISOString();
    if (password.value) body.password = password.value;
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.hash = `#/tournament/${made.id}`;
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  } },
  h("div", { class: "options" },
    field(t("page.tournament.name"), "t-name", name),
    field(t("page.lobby.game_label"), "t-game", game)),
  optionsBox,
  h("div", { class: "options" },
    h("div", { class: "option" }, h("label", { for: "opt-clock" }, t("page.lobby.clock")), clock),
    field(t("page.tournament.system_label"), "t-system", system),
    field(t("page.tournament.length"), "t-length", length, lengthDoc),
    field(t("page.tournament.seats"), "t-seats", seats),
    field(t("page.tournament.starts_at"), "t-start", start, t("page.tournament.starts_at_doc")),
    field(t("page.lobby.rated"), "t-rated", rated),
    field(t("page.tournament.bots"), "t-bots", bots),
    field(t("page.tournament.password"), "t-password", password)),
  h("div", { class: "row" }, h("button", { type: "submit", class: "primary" }, t("page.tournament.create_button"))));
}

/** #/tournament/ID: read again every POLL_MS. */
export function showTournament(root, tid, ctx) {
  const view = { alive: true, timer: null, tick: null, data: null, password: null };
  const box = h("div", { class: "tournament", "data-testid": "tournament" }, h("p", { class: "muted" }, t("page.loading")));
  fill(root, box);
  const load = async () => {
    try {
      view.data = await api(`/api/tournaments/${encodeURIComponent(tid)}`);
      view.loadedAt = Date.now();
      if (view.alive) draw(box, view, ctx, load);
    } catch (err) {
      if (view.alive) fill(box, h("p", { class: "error" }, say(err)));
    }
    if (view.alive) view.timer = setTimeout(load, POLL_MS);
  };
  load();
  view.tick = setInterval(() => paintCountdown(box, view), 1000);
  return { destroy() { view.alive = false; clearTimeout(view.timer); clearInterval(view.tick); } };
}

function paintCountdown(box, view) {
  const el = box.querySelector("[data-testid=countdown]");
  if (!el || !view.data) return;
  const d = view.data;
  const target = d.status === "created" ? d.starts_at : d.ends_at;
  if (!target) return;
  el.textContent = countdown(until(target, d.now) - (Date.now() - view.loadedAt));
}

function draw(box, view, ctx, reload) {
  const d = view.data;
  document.title = `${d.name} · gamehall`;
  const soon = d.status === "created" && d.joined && until(d.starts_at, d.now) <= REMIND_MS;
  fill(box,
    h("section", { class: "card" },
      h("h1", {}, d.name),
      h("p", { class: "muted" }, `${d.game} · ${describe(d)}`, d.private ? ` · ${t("page.tournament.private")}` : ""),
      h("p", { "data-testid": "tournament-status" }, t(`page.tournament.status.${d.status}`),
        d.status === "running" && d.system !== "arena" ? ` · ${t("page.tournament.round_n", { n: d.round })}` : "",
        d.status === "created" ? [" · ", t("page.tournament.starts_in"), " ", h("span", { "data-testid": "countdown" })] : null,
        d.status === "running" && d.ends_at ? [" · ", t("page.tournament.ends_in"), " ", h("span", { "data-testid": "countdown" })] : null),
      d.waiting && d.waiting.length ? h("p", { class: "muted", "data-testid": "arena-queue" },
        t("page.tournament.waiting", { names: d.waiting.join(", ") }),
        d.next_pairing ? ` · ${t("page.tournament.next_pairing")} ${countdown(until(d.next_pairing, d.now))}` : "") : null,
      soon ? h("p", { class: "reminder", role: "status", "data-testid": "starts-soon" }, t("page.tournament.starts_soon")) : null,
      d.winner ? h("p", { class: "winner", "data-testid": "winner" }, t("page.tournament.winner"), " ", playerLink(d.winner)) : null,
      actions(d, view, ctx, reload)),
    standingsCard(d),
    d.playing.length ? h("section", { class: "card" }, h("h2", {}, t("page.tournament.in_play")),
      h("ul", { class: "game-list", "data-testid": "games-in-play" }, d.playing.map((g) =>
        h("li", {}, h("a", { href: `#/room/${g.room}` }, g.players.join(" – ")),
          h("span", { class: "muted small" }, ` · ${t("page.tournament.round_n", { n: g.round })}`))))) : null);
  paintCountdown(box, view);
}

/** Join (with the password where one is asked), withdraw, or start early (its creator). */
function actions(d, view, ctx, reload) {
  if (!ctx.nickname || d.status === "finished") return null;
  const act = (path, body) => async () => {
    try {
      await api(`/api/tournaments/${d.id}/${path}`, { method: "POST", body });
      window.dispatchEvent(new Event("gamehall:tournaments"));  // the reminder looks again
      reload();
    } catch (err) {
      ctx.toast(say(err), "error");
    }
  };
  const password = d.private && !d.joined ? h("input", { type: "password", name: "tournament-password",
    maxlength: 100, "aria-label": t("page.tournament.password"), placeholder: t("page.tournament.password") }) : null;
  return h("div", { class: "row" },
    d.joined
      ? h("button", { type: "button", "data-testid": "withdraw", onclick: act("withdraw") }, t("page.tournament.withdraw"))
      : d.can_join ? [password, h("button", { type: "button", class: "primary", "data-testid": "join",
        onclick: () => act("join", password ? { password: password.value } : undefined)() }, t("page.tournament.join"))] : null,
    d.creator && d.status === "created"
      ? h("button", { type: "button", "data-testid": "start-now", onclick: act("start") }, t("page.tournament.start_now")) : null);
}

function standingsCard(d) {
  const order = d.tiebreak_order;
  return h("section", { class: "card" }, h("h2", {}, t("page.tournament.standings")),
    d.standings.length ? h("div", { class: "table-wrap" }, h("table", { class: "standings", "data-testid": "standings" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("page.tournament.player")),
        h("th", {}, t("page.tournament.points")),
        order.map((tb) => h("th", { title: t(`page.tournament.tiebreak.${tb.key}_explain`) }, t(`page.tournament.tiebreak.${tb.key}`))),
        h("th", {}, t("page.profile.games")))),
      h("tbody", {}, d.standings.map((s) => h("tr", { class: s.withdrawn ? "muted" : "", "data-player": s.player },
        h("td", {}, String(s.rank)),
        h("td", {}, playerLink(s.player), s.on_fire ? " 🔥" : "", s.withdrawn ? ` (${t("page.tournament.withdrawn")})` : ""),
        h("td", { class: "points" }, String(s.points)),
        order.map((tb) => h("td", {}, String(s.tiebreaks[tb.key]))),
        h("td", {}, String(s.games)))))))
      : h("p", { class: "muted" }, t("page.tournament.nobody")),
    h("dl", { class: "tiebreaks small", "data-testid": "tiebreaks" }, order.map((tb) => [
      h("dt", {}, t(`page.tournament.tiebreak.${tb.key}`)),
      h("dd", { class: "muted" }, t(`page.tournament.tiebreak.${tb.key}_explain`))])));
}

/** Every page: a banner a few minutes before a tournament this player joined begins. */
export function remindTournaments() {
  const told = new Set();
  const banner = h("div", { class: "reminder banner", role: "status", hidden: true, "data-testid": "tournament-reminder" });
  document.body.prepend(banner);
  let timer = null;
  const look = async () => {
    clearTimeout(timer);
    try {
      const data = await api("/api/tournaments");
      const soon = data.upcoming.find((line) => line.joined && !told.has(line.id)
        && until(line.starts_at, data.now) <= REMIND_MS);
      if (soon) {
        fill(banner, t("page.tournament.reminder", { name: soon.name }), " ",
          h("a", { href: `#/tournament/${soon.id}`, onclick: () => { told.add(soon.id); banner.hidden = true; } },
            t("page.tournament.open")));
        banner.hidden = false;
      }
    } catch (_) { /* offline: the next look */ }
    timer = setTimeout(look, 30000);
  };
  window.addEventListener("gamehall:tournaments", look);
  look();
}
