"""Regenerate the golden traces in tests/golden/ (run after a deliberate rule
or bot change, then read the diff: it is the change a designer would see).

Usage: python scripts/regen_golden.py
"""

from __future__ import annotations

from pathlib import Path

from balance.games.horsepower.trace import trace_game
from balance.scenario import load_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
CASES = {"seed1-game0": (1, 0), "seed2-game5": (2, 5), "seed3-game2": (3, 2)}


def render(name: str) -> str:
    seed, game = CASES[name]
    return trace_game(load_scenario(GOLDEN / "scenario.yaml"), seed, game)


def main() -> None:
    for name in CASES:
        path = GOLDEN / f"{name}.txt"
        path.write_text(render(name))
        print(f"wrote {path.relative_to(GOLDEN.parents[1])}")


if __name__ == "__main__":
    main()
