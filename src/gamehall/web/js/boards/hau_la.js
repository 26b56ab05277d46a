// Hau La: the building in 3D (three.js): the round board with its holes, the pieces as tubes
// along their centre lines, their holes, the coloured tags; orbit with the mouse (or a finger),
// zoom with the wheel (or a pinch). A placement is chosen step by step, as the engine asks:
// piece (buttons), holes (click them in the 3D view; the free ones that may be chosen glow),
// side or rotation (buttons: a choice is a step at once, previewed as a ghost while the mouse
// is over it, a ⚠ on those that would touch), tag hole (click a ghost tag). Each step is one of
// the turn the page composes (compose.js: Back and Escape take it back), so a turn asks for one
// confirmation at most: the chosen tag, previewed with a warning when the placement touches,
// where the turn is sent as soon as it is complete; else the turn's own Send.
// Heights and the ranking are listed beside the view. A state's hint (a review's better move,
// the Hint button's move) is lit in the view and the panel (hau_la_hint.js).

import * as THREE from "../../vendor/three.module.js";
import { OrbitControls } from "../../vendor/OrbitControls.js";
import { h, fill } from "../dom.js";
import { seatPlayer } from "../links.js";
import { touches } from "./hau_la_touch.js";
import { layoutLabels, nearestOn } from "./hau_la_labels.js";
import { HINT_COLOUR, stepHint, hintGhost, hintPlace, markHint, hintLine, lightHintPanel }
  from "./hau_la_hint.js";
import { say, t } from "../i18n.js";
import { seatWord } from "../words.js";
import { sendsAtOnce } from "../compose.js";

const TAG_COLOURS = { red: 0xd33a2c, blue: 0x2f62d0, yellow: 0xf2c200, orange: 0xf07a12 };
const KIND_COLOURS = { BJ: 0xe9d7ad, SJ: 0xcdb8e8, BE: 0xa9dcc8, SE: 0xf3bea4 };
const KINDS = ["BJ", "SJ", "BE", "SE"];
const MARK_PX = 9;   // a target's radius on the screen at least (a lit hole, a ghost tag)
const TAP_PX = 24;   // a tap this near a target's centre chooses it: a 48 px target on a phone
const HIT_RADIUS = 0.55;  // a target's reach in the building's units (when drawn larger)
const kindName = (kind) => (KINDS.includes(kind) ? t(`page.hau_la.kind.${kind}`) : kind);
const faceName = (face) => (["u", "d"].includes(face) ? t(`page.hau_la.face.${face}`) : face);

/** A placement's steps (one turn's entries of the state's `moves`, by their parts) as the move
 * list writes them, one entry per step: "big joint", "into hole g5", "and hole 3b",
 * "(upper, lower faces)", "· tag in 7a (upper)"; a placement with no piece step (a bonus joint)
 * names its piece at its first hole: "big joint into hole g3". A step without parts keeps its
 * notation. */
export function moveWords(moves) {
  let holes = 0;
  const named = moves.some((m) => m.kind === "piece") ? "yes" : "no";
  return moves.map((m) => {
    const name = kindName(m.piece);
    const faces = String(m.sides || "").split("").map(faceName);
    switch (m.kind) {
      case "piece": return name;
      case "take": return t("page.hau_la.words.take", { piece: name });
      case "hole": return t("page.hau_la.words.hole", { first: holes++ ? "no" : "yes",
        named: m.piece ? named : "yes", piece: name, cell: m.cell });
      case "rotation": return t("page.hau_la.words.turned", { degrees: m.degrees });
      case "sides": return t("page.hau_la.words.sides", { faces: faces.join(", "), n: faces.length });
      case "tag": return t("page.hau_la.words.tag", { cell: m.cell, face: faceName(m.face) });
      default: return String(m.move);
    }
  });
}

/** The legal entries of the current step, sorted by what the player does with them. */
export function classify(entries) {
  const out = { kinds: [], extras: [], holes: [], choices: [], tags: [] };
  const by = { piece: out.kinds, take: out.extras, hole: out.holes, rotation: out.choices,
    sides: out.choices, tag: out.tags };
  for (const entry of entries) (by[entry.kind] || out.choices).push(entry);
  return out;
}

/** The ghost (a preview shape from the view) that shows the choice `entry` of the current step:
 * the chosen piece at the tag step, else the ghost of that rotation or those sides. */
export function ghostFor(pending, entry) {
  const ghosts = (pending && pending.ghosts) || [];
  if (!ghosts.length) return null;
  if (pending.step === "tag") return ghosts[0];
  if (!entry) return null;
  if (entry.kind === "rotation") return ghosts.find((g) => g.rotation === entry.degrees) || null;
  return ghosts.find((g) => g.sides === entry.sides) || null;
}

/** A step's choice as a button says it, in words ("turn a quarter", "upper face"); its
 * notation (`r90`, `u`) is left to the tooltip. */
function choiceLabel(entry) {
  switch (entry.kind) {
    case "tag": return t("page.hau_la.choice.tag", { cell: entry.cell, face: entry.face });
    case "take": return t("page.hau_la.take", { piece: kindName(entry.piece) });
    case "piece": return kindName(entry.piece);
    case "rotation": return t("page.hau_la.choice.rotation", { degrees: entry.degrees });
    case "sides": return t("page.hau_la.choice.sides", { sides: entry.sides });
    default: return entry.move;
  }
}

function vec(p) {
  return new THREE.Vector3(p[0], p[1], p[2]);
}

function tube(points, radius, material) {
  const curve = new THREE.CatmullRomCurve3(points.map(vec), false, "centripetal");
  const geo = new THREE.TubeGeometry(curve, Math.max(8, points.length * 3), radius, 10, false);
  const mesh = new THREE.Mesh(geo, material);
  const caps = [points[0], points[points.length - 1]].map((p) => {
    const cap = new THREE.Mesh(new THREE.SphereGeometry(radius, 10, 8), material);
    cap.position.copy(vec(p));
    return cap;
  });
  const group = new THREE.Group();
  group.add(mesh, ...caps);
  return group;
}

function holeMarker(position, axis, colour) {
  const geo = new THREE.CylinderGeometry(0.15, 0.15, 0.78, 12);
  const mesh = new THREE.Mesh(geo, new THREE.MeshLambertMaterial({ color: colour }));
  mesh.position.copy(vec(position));
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), vec(axis).normalize());
  return mesh;
}

function disposeTree(obj) {
  obj.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    if (o.material) o.material.dispose();
  });
}

/** The 3D scene: built from a view, redrawn on demand (no animation loop). */
class Scene3D {
  constructor(container, onPick) {
    this.container = container;
    this.onPick = onPick;
    this.pickables = [];     // the targets: {key, position} (`pick` finds them on the screen)
    this.labels = [];        // HTML labels: {el, position}
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    container.append(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xdfe8ee);
    this.camera = new THREE.PerspectiveCamera(42, 4 / 3, 0.1, 500);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(13, -19, 15);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 0, 4);
    this.controls.minDistance = 6;
    this.controls.maxDistance = 80;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.addEventListener("change", () => this.render());
    this.controls.update();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7f6a, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(10, -14, 30);
    this.scene.add(sun);
    const board = new THREE.Mesh(new THREE.CylinderGeometry(10, 10, 0.4, 64),
      new THREE.MeshLambertMaterial({ color: 0xc9b48a }));
    board.rotation.x = Math.PI / 2;
    board.position.z = -0.2;
    this.scene.add(board);
    this.building = new THREE.Group();
    this.scene.add(this.building);
    this.overlay = new THREE.Group();
    this.scene.add(this.overlay);
    this.labelBox = h("div", { class: "labels" });
    this.leaders = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.leaders.setAttribute("class", "leaders");
    container.append(this.leaders, this.labelBox);
    this.pointerDown = null;
    const el = this.renderer.domElement;
    el.addEventListener("pointerdown", (ev) => { this.pointerDown = [ev.clientX, ev.clientY]; });
    el.addEventListener("pointerup", (ev) => {
      const d = this.pointerDown;
      this.pointerDown = null;
      if (!d || Math.hypot(ev.clientX - d[0], ev.clientY - d[1]) > 5) return;  // an orbit drag
      const key = this.pick(ev.clientX, ev.clientY);
      if (key) this.onPick(key);
    });
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(container);
    this.resize();
  }

  resize() {
    const w = this.container.clientWidth || 640;
    const hgt = this.container.clientHeight || 480;
    this.renderer.setSize(w, hgt, false);
    this.camera.aspect = w / hgt;
    this.camera.updateProjectionMatrix();
    if (this.extent) this.frame(false);
    this.render();
  }

  /** What must stay in view: the board's rim (top and bottom) and every piece and tag. */
  static extentOf(view) {
    const out = [];
    const rim = 10.2;
    for (let k = 0; k < 24; k++) {
      const a = (k / 24) * 2 * Math.PI;
      out.push([rim * Math.cos(a), rim * Math.sin(a), 0], [rim * Math.cos(a), rim * Math.sin(a), -0.4]);
    }
    for (const piece of view.pieces) {
      const r = piece.radius || 0.35;
      for (const p of piece.points) out.push([p[0], p[1], p[2] + r], [p[0], p[1], p[2] - r]);
    }
    for (const tag of view.tags) {
      if (tag.position) out.push([tag.position[0], tag.position[1], tag.position[2] + (tag.radius || 0.5)]);
    }
    return out;
  }

  /** Whether every point of the extent is on the screen, inside a small margin. */
  inView(margin = 0.94) {
    this.camera.updateMatrixWorld();
    return this.extent.every((p) => {
      const q = vec(p).project(this.camera);
      return q.z < 1 && Math.abs(q.x) <= margin && Math.abs(q.y) <= margin;
    });
  }

  /** Keep the whole building, board and every target in view: when some of it is off the
   * screen (or `always`), aim at its middle and step back along the line of sight until all of
   * it fits, keeping the direction the player turned the view to (their own rotation). */
  frame(always) {
    if (!always && this.inView()) return;
    const box = new THREE.Box3().setFromPoints(this.extent.map(vec));
    const centre = box.getCenter(new THREE.Vector3());
    const dir = this.camera.position.clone().sub(this.controls.target).normalize();
    this.controls.target.copy(centre);
    let d = 8;
    const place = () => {
      this.camera.position.copy(centre).addScaledVector(dir, d);
      this.camera.lookAt(centre);
    };
    place();
    while (!this.inView(0.9) && d < 400) {
      d *= 1.06;
      place();
    }
    this.controls.maxDistance = Math.max(80, d * 1.5);
    this.controls.update();
  }

  clear(group) {
    for (const child of [...group.children]) {
      group.remove(child);
      disposeTree(child);
    }
  }

  /** Refit after a change: what must stay in view is the building (`extentOf(view)`) and
   * `targets` (the spots and ghosts the step shows: points). Framed whole the first time; later
   * only when something is off the screen, from the direction the player turned it to, so a
   * zoom or turn of theirs holds until a target would be out of sight. */
  fit(view, targets) {
    const first = !this.extent;
    this.extent = [...Scene3D.extentOf(view), ...targets];
    this.frame(first);
  }

  /** World units per screen pixel at `position` (a spot's size on the screen from it). */
  unitsPerPixel(position) {
    const distance = this.camera.position.distanceTo(vec(position));
    const height = this.renderer.domElement.clientHeight || 480;
    return (2 * distance * Math.tan((this.camera.fov * Math.PI) / 360)) / height;
  }

  /** Draw the building: pieces, their free holes, tags; `lastPiece` is highlighted. */
  setBuilding(view) {
    this.clear(this.building);
    const last = view.pieces.reduce((m, p) => Math.max(m, p.number), 0);
    const before = this.lastPiece ?? last;
    this.lastPiece = last;
    this.added = [];   // the pieces this view adds to the one drawn before: for the drop
    for (const piece of view.pieces) {
      const isLast = piece.number === last && last > 3;
      const mat = new THREE.MeshLambertMaterial({
        color: KIND_COLOURS[piece.kind] || 0xdddddd,
        emissive: isLast ? 0x8a1a48 : 0x000000,
      });
      const obj = tube(piece.points, piece.radius, mat);
      obj.userData.piece = piece.number;
      this.building.add(obj);
      if (piece.number > before) this.added.push(obj);
      for (const hole of piece.holes) {
        if (!hole.occupant) this.building.add(holeMarker(hole.position, hole.axis, 0x3b3326));
      }
    }
    for (const hole of view.board.holes) {
      const ring = new THREE.Mesh(new THREE.CircleGeometry(0.3, 20),
        new THREE.MeshBasicMaterial({ color: hole.occupant ? 0x6b5a3c : 0x2b2418 }));
      ring.position.set(hole.position[0], hole.position[1], 0.01);
      this.building.add(ring);
    }
    for (const tag of view.tags) {
      if (!tag.position) continue;
      const ball = new THREE.Mesh(new THREE.SphereGeometry(tag.radius, 20, 14),
        new THREE.MeshLambertMaterial({ color: TAG_COLOURS[tag.colour] || 0x888888 }));
      ball.position.copy(vec(tag.position));
      this.building.add(ball);
    }
  }

  /** Clickable spots (free holes or ghost tags) with labels; `picked` is highlighted. */
  setPickables(spots, picked) {
    this.clear(this.overlay);
    this.pickables = [];
    this.labels = [];
    fill(this.labelBox);
    for (const spot of spots) {
      const chosen = spot.key === picked;
      // seen at MARK_PX on any screen, however far the camera stepped back
      const size = Math.max(spot.radius || 0.42, this.unitsPerPixel(spot.position) * MARK_PX);
      const marker = new THREE.Mesh(new THREE.SphereGeometry(size, 16, 12),
        new THREE.MeshBasicMaterial({ color: chosen ? 0x2e9d4f : (spot.colour || 0xffd21f),
          transparent: !!spot.faint, opacity: spot.faint ? 0.55 : 1 }));
      marker.position.copy(vec(spot.position));
      this.overlay.add(marker);
      this.pickables.push({ key: spot.key, position: spot.position });  // picked on the screen
      if (spot.label) {  // a chip of a finger's size that chooses the target (hau_la_labels.js)
        const el = h("span", { class: chosen ? "label chosen" : "label", role: "button",
          "data-label": spot.key, onclick: () => this.onPick(spot.key) }, spot.label);
        this.labelBox.append(el);
        this.labels.push({ el, position: spot.position });
      }
    }
  }

  /** A translucent ghost of the previewed piece (red when it touches) and its tag; in `slot`
   * "hintGhost" the hinted choice's ghost (in `colour`), drawn beside the player's preview. */
  setGhost(ghost, { touching, tagPosition, tagColour, colour } = {}, slot = "ghost") {
    if (this[slot]) {
      this.scene.remove(this[slot]);
      disposeTree(this[slot]);
    }
    this[slot] = null;
    if (!ghost) return;
    const group = new THREE.Group();
    const mat = new THREE.MeshLambertMaterial({ color: colour ?? (touching ? 0xe53935 : 0x4caf50),
      transparent: true, opacity: 0.55, depthWrite: false });
    group.add(tube(ghost.points, 0.35, mat));
    for (const hole of ghost.holes || []) group.add(holeMarker(hole.position, hole.axis, 0x335533));
    if (tagPosition) {
      const ball = new THREE.Mesh(new THREE.SphereGeometry(0.5, 20, 14),
        new THREE.MeshLambertMaterial({ color: TAG_COLOURS[tagColour] || 0x888888, transparent: true, opacity: 0.8 }));
      ball.position.copy(vec(tagPosition));
      group.add(ball);
    }
    this[slot] = group;
    this.scene.add(group);
  }

  /** The pieces just added drop into place from above (one short motion, then still). */
  drop(objects) {
    const height = 4;
    const ms = 500;
    const start = performance.now();
    const step = (now) => {
      const k = Math.min(1, (now - start) / ms);
      const z = height * (1 - k) * (1 - k);
      for (const obj of objects) obj.position.z = z;
      this.render();
      if (k < 1 && objects.some((obj) => obj.parent)) requestAnimationFrame(step);
    };
    for (const obj of objects) obj.position.z = height;
    this.render();
    requestAnimationFrame(step);
  }

  /** The spot a click or tap at these client coordinates means: the nearest on the screen,
   * within TAP_PX of its centre or inside its hit sphere as drawn (ghost tags of one hole lie
   * close together: the one nearest the finger, not the one nearest the camera). */
  pick(clientX, clientY) {
    let best = null;
    let bestDistance = Infinity;
    for (const spot of this.pickables) {
      const at = this.screen(spot.position);
      const distance = Math.hypot(at.x - clientX, at.y - clientY);
      const reach = Math.max(TAP_PX, HIT_RADIUS / this.unitsPerPixel(spot.position));
      if (at.visible && distance <= reach && distance < bestDistance) {
        best = spot.key;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Where a 3D point is on the screen (client pixels), for labels and tests. */
  screen(position) {
    const p = vec(position).project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + (p.x + 1) / 2 * rect.width, y: rect.top + (1 - p.y) / 2 * rect.height,
      visible: p.z < 1 };
  }

  render() {
    this.renderer.render(this.scene, this.camera);
    this.placeLabels();
  }

  /** Lay the labels out beside their spots, none over another nor over a spot, each inside
   * the view (hau_la_labels.js), with a line from a spot to its label. */
  placeLabels() {
    if (!this.leaders) return;  // rendered while being built
    const rect = this.renderer.domElement.getBoundingClientRect();
    for (const { el } of this.labels) el.hidden = false;  // measured shown, then laid out
    const items = this.labels.map(({ el, position }) => {
      const at = this.screen(position);
      const x = at.x - rect.left;
      const y = at.y - rect.top;
      return { x, y, w: el.offsetWidth, h: el.offsetHeight,
        visible: at.visible && x >= 0 && y >= 0 && x <= rect.width && y <= rect.height };
    });
    const covered = [...this.container.querySelectorAll(".overlay")].map((el) => ({
      x: el.offsetLeft, y: el.offsetTop, w: el.offsetWidth, h: el.offsetHeight }));
    const boxes = layoutLabels(items, { w: rect.width, h: rect.height }, covered);
    const lines = [];
    this.labels.forEach(({ el }, i) => {
      const box = boxes[i];
      el.hidden = !box;
      if (!box) return;
      el.style.left = `${box.x}px`;
      el.style.top = `${box.y}px`;
      const end = nearestOn(box, items[i].x, items[i].y);
      lines.push(`<line x1="${items[i].x}" y1="${items[i].y}" x2="${end.x}" y2="${end.y}"/>`);
    });
    this.leaders.innerHTML = lines.join("");
  }

  destroy() {
    this.resizer.disconnect();
    this.controls.dispose();
    this.clear(this.building);
    this.clear(this.overlay);
    this.setGhost(null);
    this.setGhost(null, {}, "hintGhost");
    this.renderer.dispose();
  }
}

function webglAvailable() {
  try {
    const canvas = document.createElement("canvas");
    return !!(canvas.getContext("webgl2") || canvas.getContext("webgl"));
  } catch (_) {
    return false;
  }
}

/** The game's part of the board (see shell.js): the 3D view takes the pointer itself. The parts
 * below share one object (`board`): shell.js's `ui`, the scene, and the step being chosen. */
export function createBoard(ui) {
  const viewBox = h("div", { class: "haula-view", "data-testid": "haula-view" });
  ui.panel.classList.add("haula-steps");
  ui.panel.setAttribute("data-testid", "haula-steps");
  fill(ui.main, viewBox);
  const board = {
    ui,
    scene: null,            // the 3D view (null: this browser has no WebGL)
    chosen: null,           // a previewed choice: a tag awaiting confirmation, or the side or
                            // rotation under the mouse
    o: classify([]),        // the current step's legal entries, by what the player does with them
    warning: null,          // what the preview touches ([]: nothing; null: no preview)
    hint: null,             // the state's hinted step (hau_la_hint.js), or null
    shown: { spot: null, ghost: null },  // what the 3D view lights for it
  };
  board.scene = mountScene(viewBox, (key) => pick(board, key));
  return {
    layout: "haula",
    gestures: false,
    words: moveWords,
    draw: () => draw(board),
    panel: () => panel(board),
    mark: () => lightHintPanel(ui.panel, board.hint),
    /** A piece the other players placed drops onto the building. */
    animate() {
      const { scene } = board;
      const added = scene ? scene.added : [];
      return added.length ? [{ play: () => scene.drop(added) }] : [];
    },
    reset() {
      board.chosen = null;
    },
    tools: boardTools(board),
    destroy() {
      if (board.scene) board.scene.destroy();
    },
  };
}

/** The 3D view in `viewBox`, or null (and a word on choosing holes by name) without WebGL. */
function mountScene(viewBox, onPick) {
  if (!webglAvailable()) {
    fill(viewBox, h("p", { class: "error" }, t("page.hau_la.no_webgl")));
    return null;
  }
  const scene = new Scene3D(viewBox, onPick);
  viewBox.append(h("div", { class: "overlay" }, t("page.hau_la.overlay")));
  return scene;
}

/** What the board offers tests: where things are on the screen. */
function boardTools(board) {
  return {
    /** Client coordinates of a hole or ghost tag (by its move) in the 3D view, for tests. */
    screenOf(key) {
      const { scene } = board;
      if (!scene) return null;
      const spot = scene.pickables.find((x) => x.key === key);
      return spot ? scene.screen(spot.position) : null;
    },
    /** Every target the 3D view offers now (a hole, a ghost tag) by its move, with its place
     * on the screen (client pixels), for tests. */
    targets() {
      const { scene } = board;
      return scene ? scene.pickables.map((x) => ({ key: x.key, ...scene.screen(x.position) })) : [];
    },
    /** What the 3D view lights for the state's hint (the spot's key, the ghost's choice), for
     * tests; null without WebGL. */
    hintShown() {
      return board.scene ? board.shown : null;
    },
    /** The camera's position and the point it looks at, for tests. */
    camera() {
      const { scene } = board;
      return scene ? { position: scene.camera.position.toArray(),
        target: scene.controls.target.toArray() } : null;
    },
    /** The building and board as drawn on the screen (client pixels: the box around every
     * point that must stay in view) and the canvas's box, for tests. */
    framing() {
      const { scene } = board;
      if (!scene || !scene.extent) return null;
      const pts = scene.extent.map((p) => scene.screen(p));
      const c = scene.renderer.domElement.getBoundingClientRect();
      return {
        left: Math.min(...pts.map((p) => p.x)), right: Math.max(...pts.map((p) => p.x)),
        top: Math.min(...pts.map((p) => p.y)), bottom: Math.max(...pts.map((p) => p.y)),
        visible: pts.every((p) => p.visible),
        canvas: { left: c.left, right: c.right, top: c.top, bottom: c.bottom },
      };
    },
  };
}

/** Preview `entry` (a tag) until it is confirmed. */
function choose(board, entry) {
  board.chosen = entry;
  board.ui.redraw();
}

/** A step chosen: played at once (a step of the turn being composed, which Back takes back). */
function play(board, entry) {
  board.chosen = null;
  board.ui.submit(entry);
}

/** A tag chosen: it completes the placement, so where a complete turn is sent at once it is
 * previewed and confirmed (the turn's one confirmation); else played, and the turn's Send
 * confirms. */
function chooseTag(board, entry) {
  if (sendsAtOnce()) choose(board, entry);
  else play(board, entry);
}

/** A click in the 3D view: a hole is played at once, a ghost tag chosen. */
function pick(board, key) {
  const hole = board.o.holes.find((e) => e.move === key);
  const tag = board.o.tags.find((e) => e.move === key);
  if (hole) play(board, hole);
  else if (tag) chooseTag(board, tag);
}

/** Show the side or rotation `entry` under the mouse as a ghost (null: none), in the 3D view
 * only: the panel stays as it is under the pointer. */
function hover(board, entry) {
  if (!board.scene || board.chosen === entry) return;
  board.chosen = entry;
  draw(board);
}

/** What a side's or rotation's ghost would touch ([]: nothing; null: no ghost to judge). */
function choiceWarning(board, entry) {
  const view = board.ui.state.view;
  const ghost = ghostFor(view.pending, entry);
  if (!ghost) return null;
  if (ghost.touches !== undefined) return ghost.touches ? [t("page.hau_la.touch.building")] : [];
  return touches(view, { points: ghost.points });
}

/** The ghost to show for the step (and the chosen tag's place at the tag step). */
function preview({ ui, o, chosen }) {
  const pending = ui.state.view.pending;
  if (!ui.mine || !pending) return { ghost: null };
  if (o.tags.length) {
    const ghost = ghostFor(pending, null);
    const tag = chosen ? (ghost?.tags || []).find((x) => x.choice === chosen.move) : null;
    return { ghost, tagPosition: tag ? tag.position : null };
  }
  if (o.choices.length && chosen) return { ghost: ghostFor(pending, chosen) };
  return { ghost: null };
}

function draw(board) {
  const { ui, scene } = board;
  const view = ui.state.view;
  const o = board.o = classify(ui.offer.entries);
  if (board.chosen && ![...o.choices, ...o.tags].some((e) => e.move === board.chosen.move)) {
    board.chosen = null;
  }
  const { ghost, tagPosition } = preview(board);
  const mover = view.to_move;
  board.warning = null;
  if (ghost) {
    board.warning = ghost.touches !== undefined
      ? (ghost.touches ? [t("page.hau_la.touch.building")] : [])
      : touches(view, { points: ghost.points, tagPosition });
  }
  const hint = board.hint = stepHint(ui.state);
  const hinted = hintGhost(view.pending, hint, { preview: ghost, chosen: board.chosen, ghostFor });
  board.shown = { spot: null, ghost: null };
  if (!scene) return;
  scene.setBuilding(view);
  const marked = markHint(spots(board, view, ghost), hint,
    hintPlace(hint, view, ghost || hinted, findHole));
  scene.fit(view, targets(marked, [ghost, hinted], tagPosition));
  scene.setPickables(marked, board.chosen ? board.chosen.move : null);
  const pieceTouches = !!board.warning && board.warning.some((w) => !w.startsWith(t("page.hau_la.touch.your_tag")));
  scene.setGhost(ghost, { touching: pieceTouches, tagPosition, tagColour: mover });
  scene.setGhost(hinted, { colour: HINT_COLOUR }, "hintGhost");
  board.shown = { spot: marked.some((x) => x.hinted) ? hint.move : null,
    ghost: hinted ? hinted.choice : null };
  scene.render();
}

/** The points a refit keeps in view besides the building: every spot to click (with room for
 * its marker) and every ghost shown (the preview, the hint's, the previewed tag). */
function targets(marked, ghosts, tagPosition) {
  const out = [];
  const around = (p, r) => out.push([p[0], p[1], p[2] + r], [p[0], p[1], p[2] - r]);
  for (const spot of marked) around(spot.position, spot.radius || 0.42);
  for (const ghost of ghosts) {
    if (!ghost) continue;
    for (const p of ghost.points || []) around(p, 0.35);
    for (const tag of ghost.tags || []) around(tag.position, 0.5);
  }
  if (tagPosition) around(tagPosition, 0.5);
  return out;
}

/** The spots to click in the 3D view: the holes the step offers, or the ghost's tags. */
function spots({ o, chosen }, view, ghost) {
  const out = [];
  if (o.holes.length) {
    for (const entry of o.holes) {
      const info = findHole(view, entry.cell);
      if (info) out.push({ key: entry.move, position: info.position, label: entry.cell });
    }
  } else if (o.tags.length && ghost) {
    for (const x of ghost.tags || []) {
      const entry = o.tags.find((e) => e.move === x.choice);
      if (entry) {
        // every ghost tag labelled: the labels are laid out apart (hau_la_labels.js)
        const faint = !chosen || entry.move !== chosen.move;
        out.push({ key: entry.move, position: x.position, colour: TAG_COLOURS[view.to_move],
          label: t("page.hau_la.label.tag", { cell: entry.cell, face: entry.face }),
          radius: 0.3, faint });
      }
    }
  }
  return out;
}

function panel(board) {
  const { ui } = board;
  const view = ui.state.view;
  const pending = view.pending || {};
  const heights = view.heights || {};
  const ranking = (view.ranking || []).map((name) => h("li", { "data-rank": name },
    h("span", { class: "swatch", style: `background:#${(TAG_COLOURS[name] || 0x888888).toString(16).padStart(6, "0")}` }),
    ` ${seatWord(name)}`, playerOf(ui, name), ": ", heights[name] === null || heights[name] === undefined
      ? t("page.hau_la.no_tag") : t("page.hau_la.height", { height: heights[name].toFixed(2) })));
  const hands = Object.entries(view.hands || {}).map(([name, hand]) => h("li", {},
    `${seatWord(name)}: ${KINDS.filter((k) => hand[k]).map((k) => `${hand[k]}×${k}`).join(" ") || t("page.hau_la.nothing")}`
    + `${hand.first_turn ? ` ${t("page.hau_la.first_turn", { n: hand.first_turn })}` : ""}`));
  const parts = [
    h("div", {}, h("strong", {}, t("page.hau_la.ranking")), h("ol", { class: "ranking", "data-testid": "ranking" }, ranking)),
    tagOwners(ui, view),
    h("div", { class: "small" }, t("page.hau_la.round", { round: view.round, stock: view.stock,
      n: view.pieces.length })),
    h("details", {}, h("summary", { class: "small" }, t("page.hau_la.hands")), h("ul", { class: "small" }, hands)),
  ];
  if (view.phase !== "over" && view.to_move) {
    parts.push(h("p", { class: "small" }, seatWord(view.to_move), playerOf(ui, view.to_move),
      `: ${say(view, "expecting")}`));
  }
  if (board.hint) {
    parts.push(hintLine(board.hint, moveWords([board.hint])[0],
      !!(board.shown.spot || board.shown.ghost)));
  }
  if (ui.mine) parts.push(stepControls(board, pending));
  if (view.events && view.events.length) {
    parts.push(h("details", {}, h("summary", { class: "small" }, t("page.hau_la.events")),
      h("ul", { class: "small" }, view.events.slice(-6).map((e) => h("li", {}, say(e, "text"))))));
  }
  return parts;
}

/** The step's controls: what was chosen so far, the choices (buttons), the preview's warning
 * and the button that confirms a previewed choice. */
function stepControls(board, pending) {
  const { ui, o, chosen, warning } = board;
  const box = h("div", { class: "step-box", "data-step": pending.step || "" });
  const chosenSoFar = [pending.kind && kindName(pending.kind), pending.first && t("page.hau_la.from", { cell: pending.first }),
    pending.second && t("page.hau_la.to", { cell: pending.second }), pending.rotation !== null && pending.rotation !== undefined
      ? t("page.hau_la.words.turned", { degrees: pending.rotation }) : null,
    pending.sides && t("page.hau_la.choice.sides", { sides: pending.sides })].filter(Boolean);
  if (chosenSoFar.length) box.append(h("p", { class: "small" }, t("page.hau_la.chosen", { list: chosenSoFar.join(", ") })));
  if (o.kinds.length || o.extras.length) {
    box.append(h("p", { class: "instructions" }, t(o.extras.length ? "page.hau_la.take_first" : "page.hau_la.choose_piece")),
      h("div", { class: "choices" }, [...o.kinds, ...o.extras].map((e) => h("button", {
        type: "button", "data-move": e.move, onclick: () => ui.submit(e),
      }, choiceLabel(e)))));
  }
  if (o.holes.length) {
    box.append(h("p", { class: "instructions" }, pending.step === "second"
      ? t("page.hau_la.hint_second") : t("page.hau_la.hint_first")),
    h("details", { open: !board.scene && board.hint?.kind === "hole" },
      h("summary", { class: "small" }, t("page.hau_la.by_name")),
      h("div", { class: "choices" }, o.holes.map((e) => h("button", { type: "button", "data-hole": e.cell,
        onclick: () => ui.submit(e) }, e.cell)))));
  }
  if (o.choices.length) {
    box.append(h("p", { class: "instructions" }, pending.step === "rotation"
      ? t("page.hau_la.hint_rotation") : t("page.hau_la.hint_sides")),
    choiceButtons(board, o.choices));
    if (o.choices.some((e) => choiceWarning(board, e)?.length)) {
      box.append(h("p", { class: "small touch-warning", "data-testid": "touch-mark" },
        t("page.hau_la.touch_mark")));
    }
  }
  if (o.tags.length) {
    box.append(h("p", { class: "instructions" }, t(sendsAtOnce() ? "page.hau_la.hint_tag"
      : "page.hau_la.hint_tag_send")), choiceButtons(board, o.tags));
  }
  if (warning && o.tags.length) box.append(warningLine(warning));
  if (chosen) {
    const entry = chosen;
    box.append(h("button", { type: "button", class: "primary", "data-action": "confirm",
      "data-confirm": entry.move, title: entry.move,
      onclick: () => { board.chosen = null; ui.submit(entry); } },
    t("page.hau_la.confirm", { move: choiceLabel(entry) })));
  }
  return box;
}

/** A button per choice: a tag's is chosen (`chooseTag`), a side's or rotation's played at
 * once, marked ⚠ where its ghost would touch and previewed while the mouse is over it. */
function choiceButtons(board, entries) {
  const { chosen } = board;
  return h("div", { class: "choices" }, entries.map((e) => {
    if (e.kind === "tag") {
      return h("button", { type: "button", "data-choice": e.move, title: e.move,
        class: chosen && e.move === chosen.move ? "chosen" : "",
        onclick: () => chooseTag(board, e) }, choiceLabel(e));
    }
    const warning = choiceWarning(board, e);
    const touching = !!(warning && warning.length);
    return h("button", { type: "button", "data-choice": e.move, title: e.move,
      class: touching ? "touching" : "", "data-touches": touching ? "yes" : "no",
      onclick: () => play(board, e),
      onpointerenter: (ev) => { if (ev.pointerType === "mouse") hover(board, e); },
      onpointerleave: (ev) => { if (ev.pointerType === "mouse") hover(board, null); },
    }, choiceLabel(e), touching ? " ⚠" : "");
  }));
}

/** What the preview touches, said before it is confirmed ([]: nothing). */
function warningLine(warning) {
  return warning.length
    ? h("p", { class: "touch-warning", "data-testid": "touch-warning" },
      t("page.hau_la.careful", { warning: warning.join("; ") }))
    : h("p", { class: "no-touch", "data-testid": "no-touch" }, t("page.hau_la.touches_nothing"));
}

/** Which tags each player owns, where someone owns more than one (a 2-player game: red
 * also owns yellow, blue also orange). */
function tagOwners(ui, view) {
  const owned = new Map();
  for (const tag of view.tags || []) {
    if (!owned.has(tag.owner)) owned.set(tag.owner, []);
    owned.get(tag.owner).push(tag.colour);
  }
  if (![...owned.values()].some((colours) => colours.length > 1)) return null;
  const swatch = (c) => h("span", { class: "swatch", title: seatWord(c),
    style: `background:#${(TAG_COLOURS[c] || 0x888888).toString(16).padStart(6, "0")}` });
  return h("ul", { class: "legend small", "data-testid": "tag-owners" }, [...owned].map(([owner, colours]) =>
    h("li", { "data-owner": owner }, colours.map(swatch), ` ${seatWord(owner)}`,
      playerOf(ui, owner), ` ${t("page.hau_la.owns", { colours: colours.slice(0, -1).map(seatWord).join(", "),
        last: seatWord(colours[colours.length - 1]) })}`)));
}

/** " (the player)" sitting at the seat named `seatName`, as a profile link; or nothing. */
function playerOf(ui, seatName) {
  return seatPlayer(ui.state.seats.find((x) => x.name === seatName));
}

function findHole(view, name) {
  for (const hole of view.board.holes) if (hole.name === name) return hole;
  for (const piece of view.pieces) for (const hole of piece.holes) if (hole.name === name) return hole;
  return null;
}
