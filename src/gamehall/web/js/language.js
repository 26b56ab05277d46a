// Which language the page speaks and the header's picker: the choice is kept by the hall for
// a known visitor (an account finds it in every browser) and in this browser (for guests and
// before a nickname), and a browser that asks for German gets German until someone picks.

import { api, identity } from "./api.js";
import { h } from "./dom.js";
import {
  LANGUAGES, LANGUAGE_NAMES, browserLanguage, language, storeLanguage, storedLanguage, t,
  useLanguage,
} from "./i18n.js";

async function serverLanguage() {
  if (!identity.token) return null;
  try {
    const prefs = await api("/api/preferences");
    return LANGUAGES.includes(prefs.language) ? prefs.language : null;
  } catch (_) {
    return null;
  }
}

/** Load the catalogue of the language this visitor speaks, before the first page is drawn. */
export async function startLanguage() {
  const kept = await serverLanguage();
  if (kept) storeLanguage(kept);
  await useLanguage(kept || storedLanguage() || browserLanguage());
  synced = identity.nickname;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

let synced = null;  // the nickname whose kept language the page speaks

/** After signing in as `me` in this tab: speak the language the account chose (a reload). */
export async function followAccount(me) {
  if (!me || !me.account || synced === me.nickname) return;
  synced = me.nickname;
  const kept = await serverLanguage();
  if (kept && kept !== language()) {
    storeLanguage(kept);
    location.reload();
  } else if (!kept && storedLanguage()) {
    keepOnServer(language());
  }
}

async function keepOnServer(value) {
  if (!identity.token) return;
  try {
    await api("/api/preferences", { method: "POST", body: { language: value } });
  } catch (_) { /* kept in this browser at least */ }
}

/** Speak `value` from now on: kept here and by the hall, and the page drawn again. */
export async function chooseLanguage(value) {
  if (!LANGUAGES.includes(value)) return;
  storeLanguage(value);
  await keepOnServer(value);
  location.reload();
}

/** The header's picker of the page's language. */
export function languagePicker() {
  return h("select", {
    class: "language", "data-testid": "language", "aria-label": t("page.header.language"),
    title: t("page.header.language"),
    onchange: (ev) => chooseLanguage(ev.target.value),
  }, LANGUAGES.map((code) => h("option", { value: code, selected: code === language() },
    LANGUAGE_NAMES[code])));
}
