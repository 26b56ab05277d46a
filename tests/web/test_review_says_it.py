"""The review panel says what the review knows and no more (js/review.js, issue 42): a move the
search looked at too little is shown "not judged" (never as a good move), a review that marked
nothing says how deep it looked, each player's accuracy stands beside their marks, and the
graph's lines are the board's seat colours: the review's own (as the pieces were at the end, a
swap included), else the game's from /api/games; in English and in German. The reviews are real
(`review_record` of a short Hula game) at 4 simulations a position, where no move is sure."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import Page

from gamehall.ai.review import review_record, with_parts
from gamehall.core import GameRecord, load_game
from tests.web.conftest import Pages

SHOW = """async ([job, game]) => {
    const { ReviewPanel } = await import("/js/review.js");
    const host = document.createElement("section");
    host.id = "says-test";
    document.body.append(host);
    const seats = job.review.seats.map((name, i) => ({ name, player: job.review.players[i] }));
    const panel = new ReviewPanel("r1", host, {
        jump: () => {}, seats: () => seats, game: () => game });
    panel.show(job);
    await new Promise((done) => {  // drawn at once, or once the game's colours came
        const look = () => host.querySelector("[data-testid=review-graph]") ? done()
            : setTimeout(look, 20);
        look(); });
    const svg = host.querySelector("[data-testid=review-graph]");
    const head = [...host.querySelectorAll("[data-testid=review-accuracy] th")]
        .map((c) => c.textContent);
    const rows = [...host.querySelectorAll("[data-testid=review-accuracy] tr[data-seat]")]
        .map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent.trim()));
    return {
        strokes: [...svg.querySelectorAll("polyline.chance")].map((l) => l.getAttribute("stroke")),
        hollow: svg.querySelectorAll("circle.unjudged").length,
        head, rows,
        depth: host.querySelector("[data-testid=review-depth]")?.textContent || null,
        notJudged: host.querySelectorAll("[data-testid=not-judged]").length,
        text: host.textContent };
}"""


def _review(swap: bool = False) -> dict[str, Any]:
    state = load_game("hula", size=5, pie=swap).new_initial_state(3)
    for move in ("c3", "swap", "d4", "e6", "b2", "g3") if swap else ("c3", "d4", "e6", "b2"):
        state.apply_action(state.string_to_action(move))
    record = GameRecord.from_state(state, ["ann", "bob"], seed=3)
    review = with_parts(review_record(record, simulations=4, seed=1), record).to_dict()
    return dict(json.loads(json.dumps(review)))


def _job(review: dict[str, Any]) -> dict[str, Any]:
    return {"status": "done", "level": "4", "simulations": 4, "review": review,
            "accuracy": review["accuracy"]}


def _show(page: Page, review: dict[str, Any]) -> dict[str, Any]:
    got = page.evaluate(SHOW, [_job(review), review["game"]])
    assert isinstance(got, dict)
    return got


def test_moves_not_judged_and_a_review_without_marks_say_so(pages: Pages) -> None:
    review = _review()
    moves = [s for s in review["steps"] if s["kind"] == "move"]
    unsure = [s for s in moves if not s["sure"]]
    assert unsure and not any(s["mark"] for s in review["steps"])  # 4 simulations: nothing sure
    got = _show(pages.new(), review)
    assert got["head"] == ["player", "accuracy", "?!", "?", "??", "not judged"]
    for seat, row in enumerate(got["rows"]):  # accuracy beside the marks, then not judged
        assert row[2:5] == ["0", "0", "0"]
        assert row[5] == str(sum(1 for s in unsure if s["seat"] == seat))
    assert got["notJudged"] == len(unsure) and got["hollow"] == len(unsure)
    assert got["depth"] == (f"No move marked: {len(moves)} moves searched at 4 simulations a "
                            "position (level 4).")


def test_the_lines_are_the_boards_seat_colours(pages: Pages) -> None:
    page = pages.new()
    with httpx.Client(base_url=pages.hall.url) as http:
        games = {g["name"]: g for g in http.get("/api/games").json()}
    hula = games["hula"]["seat_colours"]
    red, blue = hula["first"], hula["second"]
    review = _review()
    assert _show(page, review)["strokes"] == [red, blue]
    swapped = _review(swap=True)  # second answered swap: first now plays blue
    assert _show(page, swapped)["strokes"] == [blue, red]
    old = {k: v for k, v in review.items() if k != "colours"}  # stored before colours were kept
    assert _show(page, old)["strokes"] == [red, blue]


def test_the_panel_says_it_in_german(pages: Pages) -> None:
    got = _show(pages.new(locale="de-DE"), _review())
    assert got["head"][-1] == "nicht bewertet" and "nicht bewertet" in got["text"]
    assert got["depth"] is not None and got["depth"].startswith("Kein Zug markiert:")
    assert "Simulationen je Stellung (Stufe 4)" in got["depth"]
