// Hau La: does a previewed placement touch the building? A browser-side estimate for the warning
// beside the ghost preview, following the rules' geometry model: tubes of radius r around the
// pieces' centre lines touch when closer than 2r, except near a plug-hole joint that connects
// them (within the exclusion radius); a tag touches a piece (other than its host) when closer
// than r + tag radius, and another tag when closer than two tag radii.
//
// The server's touch check after the move is what counts (the rules say a move is announced
// first and judged after); when a ghost in the view carries `touches`, that flag is used.

import { t } from "../i18n.js";

const EXCLUSION = 0.8;   // the default model's exclusion radius, for a view without one

function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function clamp(x) { return Math.max(0, Math.min(1, x)); }

/** Shortest distance between segments p0-p1 and q0-q1. */
export function segmentDistance(p0, p1, q0, q1) {
  const d1 = sub(p1, p0);
  const d2 = sub(q1, q0);
  const r = sub(p0, q0);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  let sParam;
  let t;
  if (a <= 1e-12 && e <= 1e-12) return Math.sqrt(dot(r, r));
  if (a <= 1e-12) {
    sParam = 0;
    t = clamp(f / e);
  } else {
    const c = dot(d1, r);
    if (e <= 1e-12) {
      t = 0;
      sParam = clamp(-c / a);
    } else {
      const b = dot(d1, d2);
      const denom = a * e - b * b;
      sParam = denom > 1e-12 ? clamp((b * f - c * e) / denom) : 0;
      t = (b * sParam + f) / e;
      if (t < 0) {
        t = 0;
        sParam = clamp(-c / a);
      } else if (t > 1) {
        t = 1;
        sParam = clamp((b - c) / a);
      }
    }
  }
  const c1 = [p0[0] + d1[0] * sParam, p0[1] + d1[1] * sParam, p0[2] + d1[2] * sParam];
  const c2 = [q0[0] + d2[0] * t, q0[1] + d2[1] * t, q0[2] + d2[2] * t];
  const d = sub(c1, c2);
  return Math.sqrt(dot(d, d));
}

/** Distance from point p to segment a-b. */
export function pointSegmentDistance(p, a, b) {
  const ab = sub(b, a);
  const len = dot(ab, ab);
  const t = len > 1e-12 ? clamp(dot(sub(p, a), ab) / len) : 0;
  const c = [a[0] + ab[0] * t, a[1] + ab[1] * t, a[2] + ab[2] * t];
  const d = sub(p, c);
  return Math.sqrt(dot(d, d));
}

function near(p, a, b, exclusion) {
  return pointSegmentDistance(p, a, b) < exclusion;
}

/** Where a hole named like "3b" (piece 3) or "g5" (board) is, and which piece holds it. */
export function holeInfo(view, name) {
  for (const hole of view.board.holes) if (hole.name === name) return { position: hole.position, piece: null };
  for (const piece of view.pieces) {
    for (const hole of piece.holes) if (hole.name === name) return { position: hole.position, piece: piece.number };
  }
  return null;
}

/**
 * What a ghost touches: a list of sentences ("the piece touches piece 3", "your tag touches the
 * blue tag"), empty if nothing. `ghost` is {points, tagPosition?}; the pending placement names the holes it uses.
 */
export function touches(view, ghost) {
  const r = (view.pieces[0] && view.pieces[0].radius) || 0.35;
  const tagR = (view.tags[0] && view.tags[0].radius) || 0.5;
  const exclusion = view.board.exclusion_radius || EXCLUSION;
  const pending = view.pending || {};
  const used = [pending.first, pending.second].filter(Boolean);
  const joints = used.map((name) => holeInfo(view, name)).filter((j) => j && j.piece !== null);
  const found = [];
  const pts = ghost.points || [];
  for (const piece of view.pieces) {
    const jointsHere = joints.filter((j) => j.piece === piece.number).map((j) => j.position);
    if (piecesTouch(pts, piece.points, 2 * r, jointsHere, exclusion)) found.push(t("page.hau_la.touch.piece_piece", { n: piece.number }));
  }
  for (const tag of view.tags) {
    if (!tag.position || used.includes(tag.hole)) continue;  // a tag in a used hole comes out
    if (polylineNearPoint(pts, tag.position, r + tagR)) found.push(t("page.hau_la.touch.piece_tag", { colour: tag.colour }));
  }
  if (ghost.tagPosition) {
    const p = ghost.tagPosition;
    for (const piece of view.pieces) {
      if (polylineNearPoint(piece.points, p, r + tagR)) found.push(t("page.hau_la.touch.tag_piece", { n: piece.number }));
    }
    for (const tag of view.tags) {
      if (!tag.position || used.includes(tag.hole)) continue;
      const d = Math.hypot(p[0] - tag.position[0], p[1] - tag.position[1], p[2] - tag.position[2]);
      if (d < 2 * tagR) found.push(t("page.hau_la.touch.tag_tag", { colour: tag.colour }));
    }
  }
  return found;
}

function piecesTouch(a, b, limit, jointPoints, exclusion) {
  for (let i = 0; i + 1 < a.length; i++) {
    for (let j = 0; j + 1 < b.length; j++) {
      if (segmentDistance(a[i], a[i + 1], b[j], b[j + 1]) >= limit) continue;
      const excused = jointPoints.some((p) => near(p, a[i], a[i + 1], exclusion) && near(p, b[j], b[j + 1], exclusion));
      if (!excused) return true;
    }
  }
  return false;
}

function polylineNearPoint(pts, p, limit) {
  for (let i = 0; i + 1 < pts.length; i++) {
    if (pointSegmentDistance(p, pts[i], pts[i + 1]) < limit) return true;
  }
  return false;
}
