// How to play (#/rules/GAME): the game's rules text for players and the pictures the server
// draws from positions (GET /api/games/GAME/rules). The text is the game's own Markdown, read
// here into elements (never into innerHTML): headings, paragraphs, lists, tables, bold, code.

import { h, fill } from "./dom.js";
import { api, games } from "./api.js";
import { explorerSection } from "./explorer.js";
import { language, say, t } from "./i18n.js";

export function showRules(root, game, ctx) {
  let alive = true;
  const page = h("article", { class: "rules card", "data-testid": "rules", "data-game": game },
    h("p", { class: "muted" }, t("page.rules.loading")));
  fill(root, h("div", { class: "rules-page" },
    h("nav", { class: "rules-nav", "data-testid": "rules-nav" },
      h("a", { href: "#/", class: "back" }, t("page.rules.back"))),
    page));
  load();

  async function load() {
    let about;
    let list = [];
    try {
      [about, list] = await Promise.all([
        api(`/api/games/${encodeURIComponent(game)}/rules?lang=${language()}`), games()]);
    } catch (err) {
      if (alive) fill(page, h("p", { class: "error" },
        t("page.rules.failed", { error: say(err) })));
      return;
    }
    if (!alive) return;
    document.title = t("page.rules.title", { game: about.title });
    const nav = root.querySelector(".rules-nav");
    nav.append(...list.map((g) => h("a", {
      href: `#/rules/${g.name}`, class: g.name === about.name ? "current" : "",
      "aria-current": g.name === about.name ? "page" : undefined,
    }, g.title)));
    // Pictures stand beside the text; wide ones (Hau La's two views) get a row of their own.
    const box = h("div", { class: "rules-pictures", "data-testid": "rules-pictures" });
    box.append(...about.pictures.map((p) => h("figure", { class: "rules-picture" },
      h("img", { src: p.url, alt: `${about.title}: ${say(p, "caption")}`, loading: "lazy",
        onload: (ev) => {
          const img = ev.target;
          if (img.naturalWidth > 1.5 * img.naturalHeight) box.classList.add("wide");
        } }),
      h("figcaption", {}, say(p, "caption")))));
    const [heading, ...text] = markdown(about.text
      || `# ${about.title}\n\n${t("page.rules.none")}`);
    fill(page, heading, about.pictures.length ? box : null, text,
      h("p", { class: "rules-play" },
        ctx.nickname ? t("page.rules.ready") : t("page.rules.pick_nickname"),
        h("a", { href: `#/?game=${encodeURIComponent(about.name)}`, class: "button primary", "data-action": "play-it" },
          t("page.rules.play", { game: about.title }))));
    page.after(explorerSection(about.name));
  }

  return { destroy() { alive = false; } };
}

/** Markdown (the subset the rules texts use) as elements. */
export function markdown(text) {
  const out = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      out.push(h(`h${Math.min(heading[1].length + 1, 5)}`, {}, inline(heading[2])));
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      out.push(table(rows));
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const block = [];
      while (i < lines.length && (/^\s*([-*]|\d+\.)\s+/.test(lines[i])
        || (/^\s{2,}\S/.test(lines[i]) && block.length))) block.push(lines[i++]);
      out.push(list(block));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#{1,4}\s|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) {
        para.push(lines[i++].trim());
      }
      out.push(h("p", {}, inline(para.join(" "))));
    }
  }
  return out;
}

/** A list block; items indented deeper than the first marker nest in the item above. */
function list(lines) {
  const indent = (l) => l.match(/^\s*/)[0].length;
  const base = indent(lines[0]);
  const ordered = /^\s*\d+\./.test(lines[0]);
  const items = [];
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (indent(l) <= base && /^\s*([-*]|\d+\.)\s+/.test(l)) {
      items.push({ text: [l.replace(/^\s*([-*]|\d+\.)\s+/, "")], sub: [] });
    } else if (/^\s*([-*]|\d+\.)\s+/.test(l)) {
      items[items.length - 1].sub.push(l);
    } else if (items[items.length - 1].sub.length) {
      const sub = items[items.length - 1].sub;
      sub[sub.length - 1] += ` ${l.trim()}`;
    } else {
      items[items.length - 1].text.push(l.trim());
    }
  }
  return h(ordered ? "ol" : "ul", {}, items.map((it) => h("li", {}, inline(it.text.join(" ")),
    it.sub.length ? list(it.sub) : null)));
}

function table(rows) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
  const [head, ...rest] = body;
  return h("div", { class: "table-wrap" }, h("table", { class: "rules-table" },
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", {}, inline(c))))),
    h("tbody", {}, rest.map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, inline(c))))))));
}

/** **bold**, *italic*, `code` inside a line. */
function inline(text) {
  const parts = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const tok = m[0];
    if (tok.startsWith("**")) parts.push(h("strong", {}, tok.slice(2, -2)));
    else if (tok.startsWith("`")) parts.push(h("code", {}, tok.slice(1, -1)));
    else parts.push(h("em", {}, tok.slice(1, -1)));
    last = m.index + tok.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
