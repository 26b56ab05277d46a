// The page's language: its catalogue (GET /i18n/<lang>.json, every key to an ICU string),
// t(key, args) for the page's own strings and say(obj, field) for the server's sentences.
//
// The language is the one the player chose (kept by the hall for a known visitor, and in this
// browser), else the browser's first language the hall speaks, else English. The formatter
// reads the same ICU subset as core/messages.py: {x}, {n, plural, =0 {…} one {…} other {…}}
// with #, {x, select, a {…} other {…}} and apostrophe quoting.

export const LANGUAGES = ["en", "de"];
export const LANGUAGE_NAMES = { en: "English", de: "Deutsch" };
const STORE = "gamehall.language";

let lang = "en";
let table = {};     // the chosen language's catalogue over the English one
let own = {};       // the chosen language's catalogue alone (say: a key it lacks stays English)
const parsedCache = new Map();

/** The language the page speaks now. */
export function language() {
  return lang;
}

/** What this browser would pick with no stored choice: its first language the hall speaks. */
export function browserLanguage() {
  const asked = (navigator.languages && navigator.languages.length)
    ? navigator.languages : [navigator.language || "en"];
  for (const tag of asked) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** The choice stored in this browser, or null. */
export function storedLanguage() {
  const value = localStorage.getItem(STORE);
  return LANGUAGES.includes(value) ? value : null;
}

/** Keep `value` as this browser's choice. */
export function storeLanguage(value) {
  if (LANGUAGES.includes(value)) localStorage.setItem(STORE, value);
}

async function fetchCatalogue(name) {
  try {
    const resp = await fetch(`/i18n/${name}.json`, { headers: { Accept: "application/json" } });
    return resp.ok ? await resp.json() : {};
  } catch (_) {
    return {};  // offline: the keys' English fallbacks below still make a page
  }
}

/** Load the catalogue of `choice` (and English beneath it) and speak it from now on. */
export async function useLanguage(choice) {
  lang = LANGUAGES.includes(choice) ? choice : "en";
  const [en, mine] = await Promise.all([fetchCatalogue("en"),
    lang === "en" ? null : fetchCatalogue(lang)]);
  own = mine || en;
  table = { ...en, ...own };
  parsedCache.clear();
  document.documentElement.lang = lang;
  document.documentElement.dataset.catalogue = lang;  // loaded: what tests wait for
}

/** "yes" on a touch screen (its main pointer a finger), else "no": every page string may ask
 * (`{touch, select, yes {Tap} other {Click}}`) to say "tap" where a person taps. */
function touchScreen() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches ? "yes" : "no";
}

/** The page's string `key` with `args` put in (the key itself when no catalogue has it); the
 * argument `touch` is there for every string (`touchScreen`). */
export function t(key, args = {}) {
  const text = table[key];
  if (text === undefined) return key;
  return formatParsed(parsedOf(key, text), { touch: touchScreen(), ...args }, null);
}

/**
 * A sentence the server sent, in the page's language: `obj.key`/`obj.args` (for the fields
 * `message` and `text`) or `obj[field + "_key"]`/`obj[field + "_args"]` when that key is in
 * the catalogue, else the English text the server put in `obj[field]`.
 */
export function say(obj, field = "message") {
  if (obj === null || obj === undefined) return "";
  if (typeof obj !== "object") return String(obj);
  const plain = field === "message" || field === "text";
  const key = plain ? obj.key : obj[`${field}_key`];
  const args = (plain ? obj.args : obj[`${field}_args`]) || {};
  const english = obj[field] === undefined || obj[field] === null ? "" : String(obj[field]);
  if (typeof key !== "string" || own[key] === undefined) return english;
  try {
    return formatParsed(parsedOf(key, own[key]), namesIn(args), null);
  } catch (_) {
    return english;  // arguments the catalogue's string does not find: the server's words
  }
}

/** A nested message argument ({key, args}) said in the page's language. */
function nested(value) {
  const text = table[value.key];
  return text === undefined ? value.key
    : formatParsed(parsedOf(value.key, text), namesIn(value.args || {}), null);
}

// The server names a house bot's seat by its spec: "mcts:hard bot", "random bot" (the name its
// rated player row has; no person can take it, as nicknames have no spaces). People read its
// level instead: "Hard bot". Another spec (a number of simulations someone typed) stays as typed.
const HOUSE_BOT = /^(?:(random)|(?:mcts|uct):(easy|medium|hard)) bot$/;

/** A player's name as people read it: a house bot's by its level ("Hard bot", "Starker Bot"),
 * anyone else's as it is. */
export function playerWords(name) {
  const found = typeof name === "string" ? HOUSE_BOT.exec(name) : null;
  return found ? t("page.bot.name", { level: found[1] || found[2] }) : name;
}

/** A server sentence's arguments with every house bot's name in words (a seat's player,
 * a winner, who ran out of time). */
function namesIn(args) {
  const out = {};
  for (const [k, v] of Object.entries(args)) out[k] = playerWords(v);
  return out;
}

function parsedOf(key, text) {
  let nodes = parsedCache.get(key);
  if (!nodes) {
    nodes = parse(text);
    parsedCache.set(key, nodes);
  }
  return nodes;
}

// --- the ICU subset ----------------------------------------------------------------------------
const POUND = { pound: true };

/** An ICU string as nodes: strings, POUND, and {name, kind, branches} placeholders. */
export function parse(text) {
  const [nodes, at] = nodesOf(text, 0, false);
  if (at !== text.length) throw new SyntaxError(`unmatched '}' at ${at} in ${text}`);
  return nodes;
}

function nodesOf(text, at, inPlural) {
  const out = [];
  let buf = "";
  while (at < text.length) {
    const c = text[at];
    if (c === "'") {
      const [piece, next] = quoted(text, at, inPlural);
      buf += piece;
      at = next;
    } else if (c === "}") {
      break;
    } else if (c === "#" && inPlural) {
      if (buf) out.push(buf);
      out.push(POUND);
      buf = "";
      at++;
    } else if (c === "{") {
      if (buf) out.push(buf);
      buf = "";
      const [node, next] = placeholder(text, at + 1);
      out.push(node);
      at = next;
    } else {
      buf += c;
      at++;
    }
  }
  if (buf) out.push(buf);
  return [out, at];
}

function quoted(text, at, inPlural) {
  const next = text[at + 1] || "";
  if (next === "'") return ["'", at + 2];
  if (next === "{" || next === "}" || (next === "#" && inPlural)) {
    const end = text.indexOf("'", at + 1);
    if (end < 0) throw new SyntaxError(`unclosed quote in ${text}`);
    return [text.slice(at + 1, end), end + 1];
  }
  return ["'", at + 1];
}

function findAny(text, at, chars) {
  for (let i = at; i < text.length; i++) if (chars.includes(text[i])) return i;
  throw new SyntaxError(`unclosed argument in ${text}`);
}

function placeholder(text, at) {
  const close = findAny(text, at, ",}");
  const name = text.slice(at, close).trim();
  if (text[close] === "}") return [{ name, kind: "", branches: new Map() }, close + 1];
  const comma = findAny(text, close + 1, ",}");
  const kind = text.slice(close + 1, comma).trim();
  if ((kind !== "plural" && kind !== "select") || text[comma] !== ",") {
    throw new SyntaxError(`unknown argument type ${kind} in ${text}`);
  }
  const branches = new Map();
  let pos = comma + 1;
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    if (pos < text.length && text[pos] === "}") break;
    const brace = text.indexOf("{", pos);
    if (brace < 0) throw new SyntaxError(`unclosed ${kind} in ${text}`);
    const selector = text.slice(pos, brace).trim();
    const [branch, end] = nodesOf(text, brace + 1, kind === "plural");
    if (end >= text.length || !selector) throw new SyntaxError(`bad ${kind} branch in ${text}`);
    branches.set(selector, branch);
    pos = end + 1;
  }
  if (!branches.has("other")) throw new SyntaxError(`${kind} without 'other' in ${text}`);
  return [{ name, kind, branches }, pos + 1];
}

function formatParsed(nodes, args, number) {
  let out = "";
  for (const node of nodes) {
    if (node === POUND) out += numberText(number);
    else if (typeof node === "string") out += node;
    else out += formatPlaceholder(node, args);
  }
  return out;
}

function formatPlaceholder(node, args) {
  if (!(node.name in args)) throw new Error(`message argument ${node.name} is missing`);
  const value = args[node.name];
  if (!node.kind) {
    if (value && typeof value === "object" && typeof value.key === "string") return nested(value);
    return typeof value === "number" ? numberText(value) : String(value);
  }
  if (node.kind === "select") {
    const branch = node.branches.get(String(value)) || node.branches.get("other");
    return formatParsed(branch, args, null);
  }
  const n = Number(value);
  const exact = node.branches.get(`=${numberText(n)}`);
  const category = new Intl.PluralRules(lang).select(n);
  const branch = exact || node.branches.get(category) || node.branches.get("other");
  return formatParsed(branch, args, n);
}

function numberText(value) {
  return value === null || value === undefined ? "" : String(value);
}
