// Hints: in a casual game against the hall's bots, the bot's move for this page's own seat.
//
// The server says in each state whether this seat may ask now (`hints`), so the button shows
// only then; a press asks POST /api/rooms/ID/hint and hands the move to `show`, which lights it
// on the board the way a review's better move is lit (the board shell's `hint`, one mechanism
// for every game), with its notation beside the button. A hint holds only for the position it
// was thought out for (its `version`): a new position puts it away. The hint is said in the
// server's words for the whole turn ("place a stack on d4, then move the stack on c3 to c5").

import { h, fill } from "./dom.js";
import { api } from "./api.js";
import { say, t } from "./i18n.js";

export class HintBox {
  /** `show(hint)` lights a hint message's move on the board (null: the board without one). */
  constructor(roomId, toast, show) {
    this.roomId = roomId;
    this.toast = toast;
    this.show = show;
    this.state = null;
    this.hint = null;     // the latest hint message, while it holds
    this.asking = false;
    this.el = h("div", { class: "hint-box", "data-testid": "hint-box", hidden: true });
  }

  /** After a state was drawn on the board (without a hint): show the button where the server
   * allows, and keep the hint only while it holds. */
  update(state) {
    this.state = state;
    if (this.hint && (this.hint.version !== state.version || !state.hints)) this.hint = null;
    this.el.hidden = !state.hints;
    this.draw();
  }

  draw() {
    const { hint } = this;
    fill(this.el,
      h("button", { type: "button", "data-action": "hint", disabled: this.asking,
        title: t("page.hint.title"),
        onclick: () => this.ask() }, this.asking ? t("page.hint.thinking") : t("page.hint.hint")),
      hint ? h("span", { class: "hint-move", "data-testid": "hint-move" },
        ` ${t("page.hint.move", { move: hint.text ? say(hint, "text") : hint.move })}`) : null);
  }

  async ask() {
    if (!this.state || this.asking) return;
    this.asking = true;
    this.draw();
    try {
      const answer = await api(`/api/rooms/${encodeURIComponent(this.roomId)}/hint`,
        { method: "POST", body: { version: this.state.version } });
      const hint = (answer.replies || []).find((m) => m.type === "hint") || null;
      this.hint = hint && this.state && hint.version === this.state.version ? hint : null;
    } catch (err) {
      this.toast(say(err), "error");
    } finally {
      this.asking = false;
      this.draw();
      if (this.hint) this.show(this.hint);
    }
  }
}
