"""What a compiled loop over games would give, on one kernel: drawing a hand.

Draws 5 cards for each of 4,096 players from count piles (a random Deck of
50 card kinds, the Garage reshuffled in when it runs short), once with the
engine's numpy code (`balance/games/chance.py: draw_reshuffling`) and once
with a numba-compiled loop over the rows, random numbers included in both.
Prints the best of 20 runs of each.

The project does not depend on numba (the design is a numpy engine); run this
in a scratch venv:

    python3 -m venv /tmp/nb && /tmp/nb/bin/pip install numba numpy
    /tmp/nb/bin/python scripts/bench_numba_draw.py
"""

from __future__ import annotations

import importlib.util
import sys
import time
import types
from pathlib import Path

import numba
import numpy as np

# chance.py and rows.py alone, as a package of two modules: the scratch venv has
# numpy and numba, not the project's other dependencies
GAMES = Path(__file__).resolve().parents[1] / "balance" / "games"
_package = types.ModuleType("_games")
_package.__path__ = [str(GAMES)]
sys.modules["_games"] = _package


def _load(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"_games.{name}", GAMES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_load("rows")
chance = _load("chance")

ROWS, KINDS, HAND = 4096, 50, 5


@numba.njit
def draw_rows(deck: np.ndarray, discard: np.ndarray, n: np.ndarray, u: np.ndarray) -> np.ndarray:
    rows, kinds = deck.shape
    out = np.zeros_like(deck)
    for r in range(rows):
        total = 0
        for k in range(kinds):
            total += deck[r, k]
        for i in range(n[r]):
            if total == 0:  # the Garage reshuffled in
                for k in range(kinds):
                    deck[r, k] += discard[r, k]
                    total += discard[r, k]
                    discard[r, k] = 0
                if total == 0:
                    break
            pos = int(u[r, i] * total)
            k = 0
            seen = deck[r, 0]
            while seen <= pos:
                k += 1
                seen += deck[r, k]
            deck[r, k] -= 1
            out[r, k] += 1
            total -= 1
    return out


def main() -> None:
    rng = np.random.default_rng(0)
    deck = ((rng.random((ROWS, KINDS)) < 0.25) * rng.integers(1, 3, (ROWS, KINDS))).astype(np.int8)
    garage = ((rng.random((ROWS, KINDS)) < 0.2) * rng.integers(1, 3, (ROWS, KINDS))).astype(np.int8)
    n = np.full(ROWS, HAND)
    keys = chance.Streams(0, 0, ROWS).key(np.arange(ROWS), "draw", 0)
    draw_rows(deck.copy(), garage.copy(), n, rng.random((ROWS, 2 * HAND)))  # compile first
    ways = {
        "numpy (chance.draw_reshuffling)": lambda d, g: chance.draw_reshuffling(keys, d, g, n),
        "numba loop over the rows": lambda d, g: draw_rows(d, g, n, rng.random((ROWS, 2 * HAND))),
    }
    print(f"numpy {np.__version__}, numba {numba.__version__}; {ROWS} players draw {HAND} of {KINDS} kinds")
    for name, draw in ways.items():
        best = min(_timed(draw, deck.copy(), garage.copy()) for _ in range(20))
        print(f"{name:34s} {best * 1e6:7.0f} us  ({best / ROWS * 1e9:.0f} ns a player)")


def _timed(draw, deck: np.ndarray, garage: np.ndarray) -> float:
    start = time.perf_counter()
    draw(deck, garage)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
