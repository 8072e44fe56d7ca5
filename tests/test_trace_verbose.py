"""`balance trace --verbose`: every hand at each turn and every card drawn (issue 36)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.mark.parametrize("scenario", ["four-player-mixed", "heat-usa", "downforce-four", "shuffle-gp-four"])
def test_a_verbose_trace_prints_every_hand_and_the_draws(scenario):
    """Issue 36: the trace did not print hands or draws, so 'draw a card after an
    anytime card' or 'discard down to three' could not be checked from it."""
    from balance.cli import app

    from .conftest import ROOT

    path = str(ROOT / "scenarios" / f"{scenario}.yaml")
    plain = CliRunner().invoke(app, ["trace", path, "--game-number", "1"])
    verbose = CliRunner().invoke(app, ["trace", path, "--game-number", "1", "--verbose"])
    assert plain.exit_code == verbose.exit_code == 0, verbose.output
    assert "hands:" not in plain.stdout
    hands = [line for line in verbose.stdout.splitlines() if line.startswith("    hands: seat 0: ")]
    turns = [line for line in plain.stdout.splitlines() if line.startswith(("Turn ", "Round ", "seat "))]
    assert len(hands) >= 3 and len(hands) <= len(turns) + 1
    kept = [line for line in verbose.stdout.splitlines() if "hands:" not in line and " draws " not in line]
    dropped = [line for line in plain.stdout.splitlines() if " draws " not in line]
    assert kept == dropped, "verbose only adds lines"
    if scenario in ("four-player-mixed", "shuffle-gp-four"):
        assert any(" draws " in line and "distance card" not in line for line in verbose.stdout.splitlines())
