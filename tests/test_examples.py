"""examples/first-draft: Horsepower's first draft and its scenarios (issue 45): each scenario plays the database
beside it, and the shipped cards.yaml is its rebalanced successor: the same cards and Playbooks with other numbers,
but for the ones the designer gave a new condition where rebalance said no number could reach the band (each
named in examples/README.md)."""

from __future__ import annotations

from pathlib import Path

import yaml

from balance.games.horsepower import GAME
from balance.scenario import load_scenario

from .conftest import CARDS, ROOT, SHIPPED

FIRST_DRAFT = ROOT / "examples" / "first-draft"


def test_each_first_draft_scenario_plays_the_first_draft():
    scenarios = sorted(FIRST_DRAFT.glob("*.yaml"))
    assert {p.name for p in scenarios} == {
        "cards.yaml",
        "four-player-mixed.yaml",
        "three-player-mixed.yaml",
        "two-player-duel.yaml",
    }
    for path in scenarios:
        if path.name == "cards.yaml":
            continue
        scenario = load_scenario(path)
        assert Path(scenario.cards_path).resolve() == CARDS.resolve(), path
        assert scenario.name.startswith("first-draft-"), "its runs never land on the shipped scenario's"
        GAME.prepare(scenario)


# rebalance said of each that no value of its numbers reaches the band: the designer gave it a condition (or
# took an effect away), and rebalance balanced the numbers then
REDESIGNED = {
    "rocket_fuel",
    "seasoned_veteran",
    "rubber_band",
    "lead_foot",
    "draft_tow",
    "twin_cam_tuning",
    "rotary_engine",
    "mag_wheels",
    "roll_cage",
    "front_runner",
    # the fourth pass: a condition with a number on items strong at their least number
    "drift_tyres",
    "extended_wheelbase",
    "junk_toss",
    "underdog",
    "back_marker",
    "rear_ender",
    # the sixth pass (examples/README.md step 6): coin thresholds that split the fields, Playbooks no number moved,
    # the duel's Spin Out, coins alone a dead card
    "tip_jar",
    "second_wind",
    "pit_crew_overhaul",
    "pit_lane_saboteur",
    "spin_out",
    "launch_control",
    "dual_mount_frame",
    "spaceframe",
    "slipstream_body",
    "sticky_fingers",
    "interest_account",
    "cog_tread_wheels",
    "oil_slick",
    # the ninth pass (examples/README.md step 9): coin thresholds that split the fields gave way to lap and card
    # conditions, an effect taken away or added where a number moved an item past the band
    "endurance_tyres",
    "trade_magazine",
    "race_insurance",
    "lap_cleanup",
    # the eleventh pass (examples/README.md step 11): the edge cluster stepped toward 0
    "sponsorship_deal",
}

# the rule settings the designer added (docs/rules.md 6.1: the box's 18 Debris ran out in every game)
DESIGNER_RULES = {"debris_supply"}


def test_the_shipped_database_is_the_first_draft_with_other_numbers():
    first, shipped = (yaml.safe_load(p.read_text()) for p in (CARDS, SHIPPED))
    for kind in ("cards", "playbooks"):
        assert [e["id"] for e in first[kind]] == [e["id"] for e in shipped[kind]]
        for a, b in zip(first[kind], shipped[kind], strict=True):
            if a["id"] not in REDESIGNED:  # the same effects, words and conditions: numbers may differ
                assert _shape(a) == _shape(b), a["id"]
    assert set(first["rules"]) | DESIGNER_RULES == set(shipped["rules"])
    assert shipped["rules"]["debris_supply"] == "unlimited" and "debris_supply" not in first["rules"]
    told = (ROOT / "examples" / "README.md").read_text()
    names = {e["id"]: e["name"] for kind in ("cards", "playbooks") for e in shipped[kind]}
    assert all(names[i] in told for i in REDESIGNED), "each redesign is said where the first draft is kept"


def _shape(node):
    """A node with every number (and the text, which says them) blanked."""
    if isinstance(node, dict):
        return {k: "text" if k == "text" else _shape(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_shape(v) for v in node]
    return "#" if isinstance(node, int | float) and not isinstance(node, bool) else node
