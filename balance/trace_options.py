"""`balance trace`'s choice of one game of a run: --game-number N.

Every other command's --game names a game (horsepower, heat, ...). trace's
game number was once called --game too, so a reader of old notes, or of
the other commands, may type `--game 4500` or `--game-number heat`; each
gets one line saying which option means what.
"""

from __future__ import annotations

from .errors import Problem, UserError
from .games import GAMES


def game_number(text: str, old_game: str | None = None) -> int:
    """The game of the run to trace, from --game-number's text. `old_game`:
    what was given to trace's --game, which names no game here (the scenario or
    run does) and is refused with what to type instead."""
    if old_game is not None:
        if old_game.strip().lstrip("+-").isdigit():
            message = (
                f"--game names a game ({', '.join(GAMES)}); which game of the run to trace is "
                f"--game-number {old_game.strip()}"
            )
        else:
            message = (
                f"trace plays the game its scenario or run names: drop --game {old_game} "
                "(which game of the run to trace: --game-number N)"
            )
        raise UserError(Problem("--game", None, "game", message))
    try:
        return int(text.strip())
    except ValueError:
        pass
    what = "a game" if text.strip() in GAMES else "not a number"
    raise UserError(
        Problem(
            "--game-number",
            None,
            "game number",
            f"{text!r} is {what}: --game-number is which game of the run to trace, from 0 (the scenario or run "
            "names the game)",
        )
    )
