"""What the compiled engines share (balance/games/compiled_engine.py): a batch
played in slices with progress between them, room for events and a watched
game's words that grows by playing the game again, and the test of whether
numba's cache holds the rules as they are now."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from balance.games.compiled_engine import PROGRESS_FIRST, Room, _fresh_index, play_in_slices


def test_a_game_that_overflows_the_event_room_is_played_again_with_twice_the_room():
    room = Room.make(games=4, per_game=2, logging=True, traces=[(1, 3)])
    played, fresh = [], []

    def play(room: Room, start: int, stop: int) -> int:
        for g in range(start, stop):
            if g == 2 and len(room.events) < 16:  # game 2 needs more room than 8 rows
                room.written[0] = len(room.events) + 1
                return g
            played.append(g)
            room.written[0] += 1
        return stop

    play_in_slices(play, 4, room, fresh.append)
    assert played == [0, 1, 2, 3] and fresh == [2] and len(room.events) == 16


def test_a_watched_games_words_get_room_and_the_slice_is_played_again():
    room = Room.make(games=3, per_game=1, logging=False, traces=[(2, 4), (1, 5)])
    calls, fresh = [], []

    def play(room: Room, start: int, stop: int) -> int:
        calls.append((start, stop, len(room.traces[0])))
        room.counts[0][0] += 7  # says 7 records, whatever its room: counted past the end
        return stop

    play_in_slices(play, 3, room, fresh.append)
    assert calls == [(0, 3, 2), (0, 3, 14)] and fresh == [0, 1, 2]
    assert room.traces[1].shape == (2, 5) and int(room.counts[0][0]) == 7


def test_progress_is_told_after_the_first_slice_then_slices_that_grow():
    told: list[int] = []
    done = [0]

    def play(room: Room, start: int, stop: int) -> int:
        done[0] = stop
        return stop

    play_in_slices(play, 100, Room.make(100, 1, False, [(1, 1)]), lambda g: None, lambda: told.append(done[0]))
    assert told[0] == PROGRESS_FIRST and told[-1] == 100 and told == sorted(told)
    steps = np.diff([0, *told])
    assert (steps[1:-1] >= steps[:-2]).all(), "each slice at least as long as the one before"


def test_the_cache_of_rules_older_than_their_source_reads_as_not_compiled(tmp_path):
    source = tmp_path / "rules.py"
    source.write_text("# rules\n")
    index = tmp_path / "__pycache__" / "rules.play_games-512.py311.nbi"
    index.parent.mkdir()
    assert not _fresh_index(index.parent, source), "no cache at all"
    index.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(index, (2_000, 2_000))
    assert _fresh_index(index.parent, source), "compiled after the last edit"
    os.utime(source, (3_000, 3_000))
    assert not _fresh_index(index.parent, source), "rules.py edited (or pulled) since: compile again, up front"


def test_the_engines_count_references_without_atomic_instructions_and_hold_the_gil():
    # plain counts are safe only while compiled code runs one thread at a time: under the GIL (no nogil)
    import importlib

    from balance.games.plain_refcounts import atomic_refcounts

    for game in ("horsepower", "heat", "downforce", "shuffle_gp"):
        rules = importlib.import_module(f"balance.games.{game}.compiled.rules")
        assert not rules.play_games.targetoptions.get("nogil"), game
    from tests.hp import batch

    batch(_hp_tables(), 2, 2)  # compiled code has run: numba's runtime is built
    assert not atomic_refcounts()


def _hp_tables():
    from balance.games.horsepower.compile import compile_database
    from balance.games.horsepower.schema import load_database

    return compile_database(load_database(Path(__file__).resolve().parents[1] / "cards.yaml"))


def test_plain_reference_counts_free_every_array_a_batch_of_games_allocates():
    # numba's own switch for plain counts returned the count before the decrement: nothing was ever freed
    import subprocess
    import sys

    script = (
        "import numpy as np\n"
        "from balance.games.chance import Streams\n"
        "from balance.games.horsepower import compiled\n"
        "from balance.games.horsepower.bots import bot_table, resolve_profiles\n"
        "from tests.test_compiled_engine import _hp_tables\n"
        "from numba.core.runtime import nrt\n"
        "t = _hp_tables()\n"
        "bots = bot_table(resolve_profiles(None), ['racer', 'economist'], t, 2)\n"
        "seats = np.tile(np.arange(2), (64, 1))\n"
        "compiled.simulate(t, bots, seats, Streams(7, 0, 64))\n"
        "before = nrt.rtsys.get_allocation_stats()\n"
        "st = compiled.simulate(t, bots, seats, Streams(7, 0, 64))\n"
        "del st\n"
        "after = nrt.rtsys.get_allocation_stats()\n"
        "print(after.alloc - before.alloc, after.free - before.free, after.mi_alloc - before.mi_alloc, after.mi_free - before.mi_free)\n"
    )
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "NUMBA_NRT_STATS": "1", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root, check=True)
    alloc, free, mi_alloc, mi_free = (int(v) for v in out.stdout.split())
    assert alloc > 1000 and mi_alloc > 1000  # the games did allocate
    assert (alloc, mi_alloc) == (free, mi_free)
