"""Audit: how often a Horsepower bot places a Banana in its own path and then
hits it (issue 36). Plays GAMES traced games of SCENARIO (seed 404) and counts,
turn by turn, the Bananas placed within 12 spaces ahead of the player whose turn
it is, and those that player then drove into in the same turn.

    python scripts/scan_bananas.py scenarios/two-player-duel.yaml 300
"""

from __future__ import annotations

import re
import sys

from balance.games import get_game
from balance.scenario import load_scenario


def main() -> None:
    scenario = load_scenario(sys.argv[1])
    games = int(sys.argv[2])
    game = get_game(scenario.model.game)
    placed = ahead = hit = 0
    for k in range(games):
        for block in re.split(r"\n(?=Round \d+, seat )", game.trace(scenario, 404, k)):
            head = re.match(r"Round \d+, seat (\d+) \([^)]*\): lap \d+ space (\d+)", block)
            if not head:
                continue
            seat, pos = int(head[1]), int(head[2])
            for m in re.finditer(r"Banana ahead of seat \d+: placed on space (\d+)", block):
                placed += 1
                if pos < int(m[1]) <= pos + 12:
                    ahead += 1
                    hit += bool(re.search(rf"seat {seat} (hits a Banana|is Wiped Out)", block[m.end() :]))
    print(
        f"{sys.argv[1]}: {games} games, Bananas placed {placed}, within 12 ahead of the placer {ahead}, then hit by it {hit}"
    )


if __name__ == "__main__":
    main()
