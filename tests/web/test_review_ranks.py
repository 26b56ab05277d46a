"""A 3-player review on the page (js/review.js): the graph draws each seat's expected rank from
the review's `ranks`, its axis labelled as a rank with 1 at the top and 3 at the bottom, marks
placed on the lines, and a marked move tells the rank with the chance. The review is a real one
(`review_record` of a random 3-player Hau La game, tests/ai/test_ranks.py) with one mark set by
hand, shown by the page's own module; a 2-seat review keeps the chance axis."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

from gamehall.ai.review import review_record, with_parts
from tests.ai.test_ranks import three_player_hau_la
from tests.web.conftest import Pages

SHOW = """async (job) => {
    const { ReviewPanel } = await import("/js/review.js");
    const host = document.createElement("section");
    host.id = "rank-test";
    document.body.append(host);
    window.jumps = [];
    const seats = job.review.seats.map((name, i) => ({ name, player: job.review.players[i] }));
    const panel = new ReviewPanel("r1", host, {
        jump: (step, hint) => window.jumps.push([step, hint && hint.move]), seats: () => seats });
    panel.show(job);
    const svg = host.querySelector("[data-testid=review-graph]");
    const top = svg.querySelector("text[data-end=top]").textContent;
    const bottom = svg.querySelector("text[data-end=bottom]").textContent;
    const ys = [...svg.querySelectorAll("polyline.chance")].map((line) =>
        line.getAttribute("points").trim().split(/\\s+/).map((p) => Number(p.split(",")[1])));
    const marks = [...svg.querySelectorAll("circle.mark")].map((c) => Number(c.getAttribute("cy")));
    return { axis: svg.dataset.axis, label: svg.getAttribute("aria-label"), top, bottom, ys,
             marks, legend: host.textContent };
}"""


def _job(review: dict[str, Any]) -> dict[str, Any]:
    return {"status": "done", "level": "3", "simulations": 3, "review": review,
            "accuracy": review["accuracy"]}


def _marked(review: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The review with its first searched move of seat 1 marked a blunder (by hand)."""
    step = next(s for s in review["steps"] if s["kind"] == "move" and s["seat"] == 1)
    step["mark"] = "blunder"
    review["marks"][1]["blunder"] += 1
    return review, step


def test_a_three_player_review_graphs_expected_ranks_one_at_the_top(pages: Pages) -> None:
    record = three_player_hau_la(3)
    review, step = _marked(json.loads(json.dumps(
        with_parts(review_record(record, simulations=3, seed=1), record).to_dict())))
    page: Page = pages.new()
    got = page.evaluate(SHOW, _job(review))
    assert got["axis"] == "rank" and "expected rank" in got["label"] and "1 at the top" in \
        got["label"]
    assert (got["top"], got["bottom"]) == ("1", "3")
    ranks = review["ranks"]
    winner = review["final"].index(1.0)
    ends = [line[-1] for line in got["ys"]]
    assert ends[winner] == min(ends)  # rank 1: the highest point (least y)
    # each line follows its seat's rank: a better (lower) rank is drawn higher (a lower y)
    for seat, line in enumerate(got["ys"]):
        for i in range(1, len(line)):
            if ranks[i][seat] < ranks[i - 1][seat] - 1e-3:
                assert line[i] < line[i - 1]
    mark_y = got["ys"][1][step["index"] + 1]
    assert got["marks"] == [mark_y]  # the mark sits on its seat's rank line
    assert "expected rank" in got["legend"]
    page.click("#rank-test [data-testid=review-marks] button.mark")
    picked = page.locator("#rank-test [data-testid=review-picked]").inner_text()
    assert "expected rank" in picked and "winning chance" in picked
    assert page.evaluate("window.jumps") == [[step["index"], step["best"]]]


def test_a_two_seat_review_keeps_the_chance_axis(pages: Pages) -> None:
    from gamehall.core import GameRecord, load_game

    state = load_game("hula").new_initial_state(5)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state, ["ann", "bob"], seed=5)
    review = with_parts(review_record(record, simulations=4, seed=1), record).to_dict()
    got = pages.new().evaluate(SHOW, _job(review))
    assert got["axis"] == "chance" and (got["top"], got["bottom"]) == ("100%", "0%")
