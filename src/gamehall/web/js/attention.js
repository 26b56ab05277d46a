// Your turn, seen from another tab: the tab's icon turns to a lit dot while it is this page's
// move, and an optional short sound (off unless the person turns it on; remembered in this
// browser) plays when the turn comes to them. The sound is made with WebAudio: nothing is
// downloaded.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "gamehall.turnSound";

const icon = (fill, ring) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" `
  + `fill="${fill}" stroke="${ring}" stroke-width="4"/></svg>`);
const ICONS = { mine: icon("#f2c230", "#2f6f4f"), idle: icon("#d9d2c3", "#26332c") };

let audio = null;    // the AudioContext, made on the first click that allows it
let wasMine = false;
let sounds = 0;      // how many times the sound played (for tools and tests)

/** Whether the turn sound is on in this browser. */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch (_) {
    return false;
  }
}

/** A checkbox that turns the sound on or off (and remembers it). */
export function soundToggle() {
  const box = h("input", { type: "checkbox", checked: soundOn(), "data-action": "turn-sound",
    onchange: () => {
      try {
        localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
      } catch (_) { /* storage refused: the choice lasts this page only */ }
      if (box.checked) beep();  // a sample, and the click lets the page make sound later
    } });
  return h("label", { class: "small sound-toggle", title: t("page.sound.title") },
    box, ` ${t("page.sound.label")}`);
}

/** Show whether it is this page's move; play the sound when the move has just come to it. */
export function signalTurn(mine) {
  setIcon(mine ? "mine" : "idle");
  if (mine && !wasMine && soundOn()) beep();
  wasMine = mine;
}

/** The page left the room: the icon goes back to the hall's. */
export function clearTurn() {
  wasMine = false;
  setIcon("idle");
}

function setIcon(kind) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = h("link", { rel: "icon" });
    document.head.append(link);
  }
  if (link.dataset.turn === kind) return;
  link.href = ICONS[kind];
  link.dataset.turn = kind;
}

/** Two short soft tones. */
function beep() {
  sounds += 1;
  document.documentElement.dataset.turnSounds = String(sounds);
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.15, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.2);
    });
  } catch (_) { /* no sound on this machine: the icon and the title still say it */ }
}
