"""What the compiled engines share (balance/games/compiled_engine.py): a batch
played in slices with progress between them, room for events and a watched
game's words that grows by playing the game again, and the test of whether
numba's cache holds the rules as they are now."""

from __future__ import annotations

import os

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
