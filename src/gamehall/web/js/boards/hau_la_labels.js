// Hau La's target labels laid out on the screen: a ghost tag's spots lie close together (the two
// faces of one hole are a few pixels apart on a phone), so labels drawn at their spots overlapped
// and the spots were too small for a finger. Each label is a chip of a finger's size (24 CSS px
// at least) that chooses its target when tapped, put beside its spot where it covers no other
// label and no other target's spot, inside the view, with a line to its spot when it had to move
// away. A label that finds no such place is left out (its spot is still tapped in the view).

const RINGS = [28, 40, 54, 70, 88, 110, 136];  // distances tried from the spot (px)
const ANGLES = 12;                               // directions tried at each distance
const SPOT_PX = 18;   // a target's spot kept clear of labels: this far round its centre (a tap beside it)
const GAP = 2;        // between two labels

/** Whether boxes `a` and `b` ({x, y, w, h}) overlap, with `gap` between them. */
function overlaps(a, b, gap = 0) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap
    && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** The places tried for a label of size w×h round its spot (x, y): above it first, then
 * round it, ever further away. */
function candidates(x, y, w, h) {
  const out = [];
  for (const r of RINGS) {
    for (let k = 0; k < ANGLES; k++) {
      const a = -Math.PI / 2 + (k * 2 * Math.PI) / ANGLES;  // from straight up, clockwise
      const cx = x + r * Math.cos(a);
      const cy = y + r * Math.sin(a);
      out.push({ x: cx - w / 2, y: cy - h / 2, w, h });
    }
  }
  return out;
}

/** The point of `box` nearest (x, y): where a line from the spot meets its label. */
export function nearestOn(box, x, y) {
  return { x: Math.min(Math.max(x, box.x), box.x + box.w), y: Math.min(Math.max(y, box.y), box.y + box.h) };
}

/** Places for labels: `items` are {x, y, w, h, visible} (the spot's place on the view's
 * pixels, the label's size), `bounds` {w, h} the view; returns for each item a box {x, y, w, h}
 * (its top left corner on the view) or null (left out). Labels nearer the view's top are
 * placed first; every visible spot is kept clear of every label, and so are `covered` boxes
 * (what lies over the view: its note on turning and zooming). */
export function layoutLabels(items, bounds, covered = []) {
  const spots = items.filter((it) => it.visible).map((it) => ({
    x: it.x - SPOT_PX, y: it.y - SPOT_PX, w: 2 * SPOT_PX, h: 2 * SPOT_PX })).concat(covered);
  const placed = [];
  const out = items.map(() => null);
  const order = items.map((_, i) => i).sort((i, j) => items[i].y - items[j].y);
  for (const i of order) {
    const it = items[i];
    if (!it.visible) continue;
    const box = candidates(it.x, it.y, it.w, it.h).find((c) => c.x >= 0 && c.y >= 0
      && c.x + c.w <= bounds.w && c.y + c.h <= bounds.h
      && !spots.some((s) => overlaps(c, s)) && !placed.some((p) => overlaps(c, p, GAP)));
    if (!box) continue;
    placed.push(box);
    out[i] = box;
  }
  return out;
}
