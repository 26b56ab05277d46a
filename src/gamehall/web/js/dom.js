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

/** The SVG user-space point under a pointer event. */
export function svgPoint(svg, event) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : pt;
}

/**
 * Click, click-click and drag on SVG pieces, with pointer events (mouse, pen and touch alike).
 *
 * `opts.source(target)`: the draggable key for an element under the pointer, or null.
 * `opts.drop(key, event)`: the drop-target key under the pointer (or null).
 * `opts.onDrag(key, point)`: move a drag preview; `opts.onDrop(from, to)`: a finished drag;
 * `opts.onClick(target, key)`: a press and release without movement (the pressed element).
 */
export function pointerGestures(svg, opts) {
  let press = null;
  const slop = 6;

  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const key = opts.source ? opts.source(ev.target) : null;
    press = { x: ev.clientX, y: ev.clientY, key, dragging: false, id: ev.pointerId,
              target: ev.target };
    if (key !== null && key !== undefined) {
      try { svg.setPointerCapture(ev.pointerId); } catch (_) { /* not capturable */ }
      ev.preventDefault();
    }
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!press || press.key === null || press.key === undefined) return;
    const far = Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > slop;
    if (!press.dragging && far) {
      press.dragging = true;
      opts.onDragStart && opts.onDragStart(press.key);
    }
    if (press.dragging && opts.onDrag) opts.onDrag(press.key, svgPoint(svg, ev), ev);
  });
  const finish = (ev, cancelled) => {
    if (!press) return;
    const p = press;
    press = null;
    try { svg.releasePointerCapture(p.id); } catch (_) { /* already released */ }
    if (p.dragging) {
      const target = cancelled ? null : dropTarget(ev, opts);
      opts.onDragEnd && opts.onDragEnd(p.key);
      if (target !== null && target !== undefined) opts.onDrop(p.key, target);
      return;
    }
    if (!cancelled && opts.onClick) opts.onClick(p.target, p.key);
  };
  svg.addEventListener("pointerup", (ev) => finish(ev, false));
  svg.addEventListener("pointercancel", (ev) => finish(ev, true));
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
