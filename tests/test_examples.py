"""examples/first-draft: Horsepower's first draft and its scenarios (issue 45): each scenario plays the database
beside it, and the shipped cards.yaml is its rebalanced successor (the same cards and Playbooks, other numbers)."""

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


def test_the_shipped_database_is_the_first_draft_with_other_numbers():
    first, shipped = (yaml.safe_load(p.read_text()) for p in (CARDS, SHIPPED))
    for kind in ("cards", "playbooks"):
        assert [e["id"] for e in first[kind]] == [e["id"] for e in shipped[kind]]
        for a, b in zip(first[kind], shipped[kind], strict=True):
            assert _shape(a) == _shape(b), a["id"]  # the same effects, words and conditions: numbers may differ
    assert set(first["rules"]) == set(shipped["rules"])


def _shape(node):
    """A node with every number (and the text, which says them) blanked."""
    if isinstance(node, dict):
        return {k: "text" if k == "text" else _shape(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_shape(v) for v in node]
    return "#" if isinstance(node, int | float) and not isinstance(node, bool) else node
