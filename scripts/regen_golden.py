"""Regenerate the golden traces in tests/golden/ (run after a deliberate rule
or bot change, then read the diff: it is the change a designer would see).

Usage: python scripts/regen_golden.py
"""

from __future__ import annotations

from pathlib import Path

from balance.games import get_game
from balance.scenario import load_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
# name -> (scenario file in tests/golden, seed, game)
CASES = {
    "seed1-game0": ("scenario.yaml", 1, 0),
    "seed2-game5": ("scenario.yaml", 2, 5),
    "seed3-game2": ("scenario.yaml", 3, 2),
    "heat-seed1-race0": ("heat-scenario.yaml", 1, 0),
    "heat-garage-seed2-race3": ("heat-garage-scenario.yaml", 2, 3),
    "downforce-seed1-game0": ("downforce-scenario.yaml", 1, 0),
    "shuffle-gp-seed1-game0": ("shuffle-gp-scenario.yaml", 1, 0),
}


def render(name: str) -> str:
    file, seed, game = CASES[name]
    scenario = load_scenario(GOLDEN / file)
    return get_game(scenario.model.game).trace(scenario, seed, game)


def main() -> None:
    for name in CASES:
        path = GOLDEN / f"{name}.txt"
        path.write_text(render(name))
        print(f"wrote {path.relative_to(GOLDEN.parents[1])}")


if __name__ == "__main__":
    main()
