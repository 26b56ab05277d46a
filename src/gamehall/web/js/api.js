// The hall's HTTP API and this tab's identity.
//
// The token is kept per tab (sessionStorage) and sent explicitly with every request, so two
// windows of one browser can be two different players. A new tab starts from the identity last
// chosen in this browser (localStorage) until the person picks another nickname.

const TOKEN = "gamehall.token";
const NICK = "gamehall.nickname";

export class ApiError extends Error {
  constructor(code, message, status, key = null, args = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.key = key;    // the sentence's key and arguments, for i18n.js's say(err)
    this.args = args;
  }
}

export const identity = {
  get token() {
    return sessionStorage.getItem(TOKEN) || localStorage.getItem(TOKEN);
  },
  get nickname() {
    return sessionStorage.getItem(NICK) || localStorage.getItem(NICK);
  },
  set(nickname, token) {
    for (const store of [sessionStorage, localStorage]) {
      store.setItem(TOKEN, token);
      store.setItem(NICK, nickname);
    }
  },
  forget() {
    for (const store of [sessionStorage, localStorage]) {
      store.removeItem(TOKEN);
      store.removeItem(NICK);
    }
  },
};

/** fetch() with the token, JSON in and out; an ApiError carrying the server's words on failure. */
export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (identity.token) headers["X-Gamehall-Token"] = identity.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (_) {
    throw new ApiError("offline", "the server cannot be reached", 0, "page.api.offline", {});
  }
  let data = null;
  try {
    data = await resp.json();
  } catch (_) { /* an empty or non-JSON body */ }
  if (!resp.ok) {
    const message = (data && (data.message || data.detail)) || `${resp.status} ${resp.statusText}`;
    throw new ApiError((data && data.code) || "http_" + resp.status, String(message), resp.status,
      data && data.key, data && data.args);
  }
  return data;
}

/** Register a nickname for this tab. */
export async function chooseNickname(nickname) {
  const data = await api("/api/session", { method: "POST", body: { nickname } });
  identity.set(data.nickname, data.token);
  return data.nickname;
}

let gamesCache = null;

/** GET /api/games, fetched once per page load. */
export async function games() {
  if (!gamesCache) gamesCache = api("/api/games").catch((err) => { gamesCache = null; throw err; });
  return gamesCache;
}

let botsCache = null;

/** GET /api/bots: the levels players may seat and the default (what `/bot` alone seats). */
export async function botLevels() {
  if (!botsCache) botsCache = api("/api/bots").catch((err) => { botsCache = null; throw err; });
  return botsCache;
}

/** {nickname, account} for the stored token, or null (an unknown token is forgotten). */
export async function session() {
  if (!identity.token) return null;
  try {
    return await api("/api/session");
  } catch (err) {
    if (err.status === 401) identity.forget();
    return null;
  }
}

/** Sign in with a password: this tab (and new tabs) become that player. */
export async function signIn(nickname, password) {
  const data = await api("/api/login", { method: "POST", body: { nickname, password } });
  identity.set(data.nickname, data.token);
  return data.nickname;
}

/** Sign out this browser, or (`everywhere`) every browser of the player. */
export async function signOut(everywhere = false) {
  await api(everywhere ? "/api/logout/all" : "/api/logout", { method: "POST", body: {} });
  identity.forget();
}

/** Give the nickname a password, or change it (then `oldPassword` is needed). */
export async function setPassword(password, oldPassword) {
  const body = oldPassword ? { password, old_password: oldPassword } : { password };
  return api("/api/account/password", { method: "POST", body });
}
