// Small DOM and SVG helpers shared by every page and board: no framework, plain elements.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "text") {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Make `el`'s children `children`, keeping each child that is already there and looks the same
 * (the same markup) instead of replacing it: a button pressed while a new state redraws a panel
 * is still the element the release lands on, so the click is not lost.
 */
export function patch(el, ...children) {
  const wanted = [];
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    wanted.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  let i = 0;
  for (const node of wanted) {
    const current = el.childNodes[i];
    if (current !== node && !(current && sameMarkup(current, node))) {
      el.insertBefore(node, current || null);
    }
    i++;
  }
  while (el.childNodes.length > i) el.lastChild.remove();
  return el;
}

function sameMarkup(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  return a.nodeType === Node.ELEMENT_NODE ? a.outerHTML === b.outerHTML : a.textContent === b.textContent;
}

/** Scroll `box` (a list with its own scroll bar) so that `item` in it shows, without scrolling
 * the page: on a phone, a new move must not pull the page away from the board. */
export function scrollWithin(box, item) {
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
}

/** An <svg> sized to its view box that scales to its container. */
export function svgRoot(width, height, attrs = {}) {
  return s("svg", {
    viewBox: `0 0 ${fmt(width)} ${fmt(height)}`,
    preserveAspectRatio: "xMidYMid meet",
    class: "board-svg",
    ...attrs,
  });
}

/** A number rounded for SVG attributes. */
export function fmt(x) {
  return String(Math.round(x * 100) / 100);
}

/** "x1,y1 x2,y2 ..." for polygon/polyline points. */
export function points(pts) {
  return pts.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");
}

/** The SVG user-space point under a pointer event (`svg` an <svg>, or an element holding one). */
export function svgPoint(svg, event) {
  const root = svg && svg.tagName && svg.tagName.toLowerCase() === "svg" ? svg
    : svg && svg.querySelector("svg");
  if (!root) return { x: event.clientX, y: event.clientY };
  const pt = root.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const m = root.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : pt;
}

/**
 * Click, click-click and drag on a board's pieces, with pointer events (mouse, pen and touch
 * alike), listened to on `el`, an element that stays while the board inside it is redrawn.
 *
 * What was pressed is read when the button goes down (`opts.source(target)`: a draggable key, or
 * null; `opts.press(target)`: what a click means), so a press still counts when a new state
 * redraws the board before the button comes up.
 * `opts.drop(target)`: the drop-target key under the pointer (or null);
 * `opts.onDragStart(key, point)`, `opts.onDrag(key, point)` (points in SVG units),
 * `opts.onDragEnd(key)`, `opts.onDrop(from, to)`: a drag; `opts.onClick(pressed, key)`: a press
 * and release without movement, with what `opts.press` said at the press.
 */
export function pointerGestures(el, opts) {
  let press = null;
  const slop = 6;

  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const key = opts.source ? opts.source(ev.target) : null;
    press = { x: ev.clientX, y: ev.clientY, key, dragging: false, id: ev.pointerId,
              pressed: opts.press ? opts.press(ev.target) : ev.target,
              start: svgPoint(el, ev) };
    if (key !== null && key !== undefined) {
      try { el.setPointerCapture(ev.pointerId); } catch (_) { /* not capturable */ }
      ev.preventDefault();
    }
  });
  el.addEventListener("pointermove", (ev) => {
    if (!press || press.key === null || press.key === undefined) return;
    const far = Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > slop;
    if (!press.dragging && far) {
      press.dragging = true;
      opts.onDragStart && opts.onDragStart(press.key, press.start);
    }
    if (press.dragging && opts.onDrag) opts.onDrag(press.key, svgPoint(el, ev), ev);
  });
  const finish = (ev, cancelled) => {
    if (!press) return;
    const p = press;
    press = null;
    try { el.releasePointerCapture(p.id); } catch (_) { /* already released */ }
    if (p.dragging) {
      const target = cancelled ? null : dropTarget(ev, opts);
      opts.onDragEnd && opts.onDragEnd(p.key);
      if (target !== null && target !== undefined) opts.onDrop(p.key, target);
      return;
    }
    if (!cancelled && opts.onClick) opts.onClick(p.pressed, p.key);
  };
  el.addEventListener("pointerup", (ev) => finish(ev, false));
  el.addEventListener("pointercancel", (ev) => finish(ev, true));
}

function dropTarget(ev, opts) {
  // With pointer capture the event target is the capturing element: look underneath instead.
  const under = document.elementsFromPoint(ev.clientX, ev.clientY);
  for (const el of under) {
    const key = opts.drop(el);
    if (key !== null && key !== undefined) return key;
  }
  return null;
}

/** The closest ancestor (or self) carrying data attribute `name`, as its value; else null. */
export function dataOf(el, name) {
  const found = el && el.closest ? el.closest(`[data-${name}]`) : null;
  return found ? found.getAttribute(`data-${name}`) : null;
}

/**
 * Keep one child of `layer` per item, by key, across redraws: `create(item)` makes the element
 * of a new key, `update(el, item)` brings every one up to date, and the elements of keys no
 * longer there are removed. Elements that stay are the same elements (a press on one survives
 * a new state, and a move can be animated on it).
 */
export function keyed(layer, items, keyOf, create, update) {
  const known = layer.__keyed || (layer.__keyed = new Map());
  const seen = new Set();
  for (const item of items) {
    const key = keyOf(item);
    seen.add(key);
    let el = known.get(key);
    if (!el) {
      el = create(item);
      known.set(key, el);
      layer.append(el);
    }
    update(el, item);
  }
  for (const [key, el] of known) {
    if (!seen.has(key)) {
      el.remove();
      known.delete(key);
    }
  }
}
