"""`balance strength` for Shuffle Grand Prix: one seat a game is given a
driver (set aside before the draft, its first pick, driving from the start)
or starts with one extra copy of an ability card; the same games without it
are the baseline (docs/strength_shuffle_gp.md)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.games.chance import Streams
from balance.games.recorder import Recorder
from balance.games.shuffle_gp import GAME
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
from balance.games.shuffle_gp.chunk import catalog, play_chunk, prepare
from balance.games.shuffle_gp.compiled import Bonus
from balance.scenario import load_scenario
from balance.seeding import bonus_seat

from .shuffle_gp import ROOT, Phases, T, card, driver, phases, setup, simulate

BOTS = ["balanced", "aggressive", "random"]


def scenario(tmp_path: Path, name: str = "s", extra: str = "", games: int = 300, chunk: int = 150, bots=BOTS) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"name: {name}\ngame: shuffle_gp\ncards: {ROOT / 'shuffle_gp.yaml'}\nplayers: 3\n"
        f"bots: [{', '.join(bots)}]\ngames: {games}\nseed: 5\nchunk_size: {chunk}\n" + extra
    )
    return path


def match(games: int, seed: int = 3, names=BOTS) -> Phases:
    return phases(T, bot_table(resolve_profiles(None), names, T), Streams(seed, 0, games), Recorder(0))


def set_up(games: int, bonus: Bonus | None, seed: int = 3) -> tuple[Phases, object]:
    m = match(games, seed)
    seats = np.tile(np.arange(3, dtype=np.int16), (games, 1))
    return m, setup(m, seats, bonus)


def who(games: int) -> np.ndarray:
    return bonus_seat(5, np.arange(games), 3)


# --- the items ---------------------------------------------------------------------------------


def test_the_items_are_the_drivers_then_their_ability_cards_with_unique_ids(tmp_path):
    assert GAME.strength_items is not None
    items = GAME.strength_items(catalog(prepare(load_scenario(scenario(tmp_path)))))
    kinds = [i["kind"] for i in items]
    assert kinds == ["driver"] * len(T.drivers.ids) + ["ability card"] * len(T.cards.ids)
    assert [i["id"] for i in items] == [*T.drivers.ids, *T.cards.ids]
    assert len({i["id"] for i in items}) == len(items)
    assert items[0]["name"] == "Blaze" and all(i["how"] for i in items)


# --- (1) pairing -------------------------------------------------------------------------------


def test_a_driver_the_seat_would_draft_anyway_changes_nothing_in_those_games(tmp_path):
    """Every bot wants Comet above all (noise cannot outweigh it), so the first
    player drafts and drives it: given to the first player, Comet is a null
    item, and those games are played identically, event for event, in chunks
    of 8 beside games the item does change (each game's draws are its own:
    games/chance.py)."""
    prefer = "bot_profiles:\n" + "".join(f"  {b}: {{drivers: {{comet: 100}}}}\n" for b in ("balanced", "aggressive"))
    path = scenario(tmp_path, "nothing", prefer, games=24, chunk=8, bots=["balanced", "aggressive", "balanced"])
    out = tmp_path / "nothing-out"
    result = strength(path, ["comet"], options=ExperimentOptions(out=out, jobs=1))
    item_run(path, "comet", out)
    games = pl.read_parquet(out / "baseline" / "games").sort("game_id")
    first = games["first_seat"].to_numpy()
    null = np.flatnonzero(who(24) == first)
    assert 4 <= len(null) < 24, "some games with the item given to the first player, some not"
    for table, key in (("players", ["game_id", "seat"]), ("cards", None), ("games", ["game_id"])):
        base = pl.read_parquet(out / "baseline" / table)
        with_it = pl.read_parquet(out / "comet" / table)
        key = key or base.columns
        pick = pl.col("game_id").is_in(null.tolist())
        assert base.filter(pick).sort(key).equals(with_it.filter(pick).sort(key)), table
    players = pl.read_parquet(out / "comet" / "players").sort("game_id", "seat")
    seats = players.filter(pl.col("seat") == pl.Series(np.repeat(who(24), 3)).cast(pl.Int8))
    # (the log holds the cars at the end: a spin-out may have swapped driver and co-pilot)
    held = (seats["driver"] == "comet") | (seats["co_pilot"] == "comet")
    assert held.all(), "everywhere else the item moved Comet to the receiving seat"
    # paired game by game: no change at all where the item is null
    from balance.analysis.strength import receiving_seat_wins
    from balance.logs import load_run

    base = receiving_seat_wins(load_run(out / "baseline"), 5, 3)
    given = receiving_seat_wins(load_run(out / "comet"), 5, 3)
    joined = base.join(given, on="game_id", suffix="_with").filter(pl.col("game_id").is_in(null.tolist()))
    assert (joined["won"] == joined["won_with"]).all()
    assert result.table["games"].item() == 24


@pytest.mark.parametrize("item", ["ironside_brace", "blaze_ram", "comet"])
def test_setup_draws_the_same_random_numbers_and_an_extra_card_changes_only_its_seat(item):
    """An extra copy changes the deck, so no ability card is null: the game
    after setup differs only in the receiving seat's deck, draw pile and hand;
    the setup (the deal, the draft, the hands) draws the same random numbers
    with and without any item, so play starts from the same stream."""
    G = 64
    plain_m, plain = set_up(G, None)
    is_driver = item in T.drivers.ids
    bonus = Bonus(who(G), driver=driver(item)) if is_driver else Bonus(who(G), card=card(item))
    given_m, given = set_up(G, bonus)
    # the same draws, purpose by purpose and seat by seat (each game's keys' counts, and its step)
    a, b = plain_m.draws, given_m.draws
    assert a.keys() == b.keys() == set(range(G))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert np.array_equal(plain.first, given.first)
    if is_driver:
        return  # the others draft from what is left: their drivers may change (see the next tests)
    mine = np.zeros((G, 3), bool)
    mine[np.arange(G), who(G)] = True
    for f in fields(plain):
        a, b = getattr(plain, f.name), getattr(given, f.name)
        if f.name in ("start", "draw", "hand"):
            assert np.array_equal(a[~mine], b[~mine]), f.name
        else:
            assert np.array_equal(a, b), f.name


# --- (3) the receiving seat gets it -----------------------------------------------------------


def test_the_receiving_seat_is_given_the_driver_before_the_draft_and_drives_it():
    G = 200
    _, plain = set_up(G, None)
    _, st = set_up(G, Bonus(who(G), driver=driver("gremlin")))
    rows, w = np.arange(G), who(G)
    assert (st.driver[rows, w] == driver("gremlin")).all()
    held = np.concatenate([st.driver, st.co_pilot], axis=1)
    assert ((held == driver("gremlin")).sum(axis=1) == 1).all(), "nobody else drafts it"
    assert (st.co_pilot[rows, w] != driver("gremlin")).all()
    # it took the seat's first pick: the pick number of the seat's first turn in the draft
    first_turn = (w - st.first.astype(np.int64)) % 3 + 1
    assert np.array_equal(st.draft_pick[rows, w, 0], first_turn)
    deck = T.cards.driver
    mine = (deck == st.driver[rows, w][:, None]) | (deck == st.co_pilot[rows, w][:, None])
    assert np.array_equal(st.start[rows, w], np.where(mine, T.cards.count, 0))
    assert (plain.driver[rows, w] != driver("gremlin")).any(), "a real change against drafting freely"


def test_the_receiving_seat_starts_with_one_extra_copy_even_of_another_drivers_card():
    G = 200
    k = card("ironside_roll_cage")
    _, plain = set_up(G, None)
    _, st = set_up(G, Bonus(who(G), card=k))
    rows, w = np.arange(G), who(G)
    assert np.array_equal(st.start[rows, w, k], plain.start[rows, w, k] + 1)
    assert np.array_equal((st.draw + st.hand)[rows, w], st.start[rows, w])
    assert (st.start[rows, w, k] == 1).any() and (st.start[rows, w, k] == 3).any(), "with and without Ironside"


def test_a_chunk_with_a_bonus_card_keeps_every_rule_and_plays_the_card():
    """The rules checker after every turn; the extra Roll Cage (an equip) is
    played by receiving seats that do not hold Ironside too."""
    G = 96
    k = card("ironside_roll_cage")
    m = match(G, 11)
    seats = np.tile(np.arange(3, dtype=np.int16), (G, 1))
    w = who(G)

    # the rules checker (compiled rules.rule_broken) after every turn counts the receiving seat's extra copy
    st, broken = simulate(T, m.bots, seats, m.streams, bonus=Bonus(w, card=k))
    assert broken == []
    rows = np.arange(G)
    # Ironside held at the start (a spin-out swaps driver and co-pilot, never the pair)
    holds_none = (st.driver[rows, w] != driver("ironside")) & (st.co_pilot[rows, w] != driver("ironside"))
    assert holds_none.any()
    assert (st.played[rows, w, k][holds_none] > 0).any()


def test_play_chunk_gives_the_item_to_bonus_seat(tmp_path):
    path = scenario(tmp_path, extra="bonus_card: snare_landmine\n", games=40, chunk=40)
    s = load_scenario(path)
    _, st = play_chunk(prepare(s), s, 0, 40, Streams(0, 0, 40))
    plain = load_scenario(scenario(tmp_path, "plain", games=40, chunk=40))
    _, base = play_chunk(prepare(plain), plain, 0, 40, Streams(0, 0, 40))
    k, rows, w = card("snare_landmine"), np.arange(40), who(40)
    assert np.array_equal(st.start[rows, w, k] - base.start[rows, w, k], np.ones(40))


# --- (2) strong and weak items ----------------------------------------------------------------

# Comet's specialty scores 100 more a distance card, Mender's 50 less (a drag)
DRIVERS = """overrides:
  drivers.comet.specialty.amount: 100
  drivers.mender.specialty: {name: Drag, when: always, op: distance_bonus, amount: -50, text: Slower.}
"""
# Boost draws five distance cards; Steady Pace becomes an equip that makes every distance card score 0
CARDS = """overrides:
  drivers.comet.cards.comet_boost.effects.0.amount: 5
  drivers.ironside.cards.ironside_steady_pace.type: equip
  drivers.ironside.cards.ironside_steady_pace.effects: [{op: distance_bonus, amount: -100}]
"""


def test_a_strong_driver_helps_and_a_weak_one_hurts(tmp_path):
    table = strength(
        scenario(tmp_path, "d", DRIVERS, games=200, chunk=200),
        ["comet", "mender"],
        options=ExperimentOptions(out=tmp_path / "d", jobs=1),
    )
    change = dict(zip(table.table["card"], table.table["change"], strict=True))
    assert change["comet"] > 0.2 and change["mender"] < -0.1, change
    assert table.table.filter(pl.col("card") == "comet")["name"].item() == "Comet"


def test_a_strong_card_helps_and_a_harmful_one_hurts(tmp_path):
    path = scenario(tmp_path, "c", CARDS)
    table = strength(
        path, ["comet_boost", "ironside_steady_pace"], options=ExperimentOptions(out=tmp_path / "c", jobs=1)
    ).table
    change = dict(zip(table["card"], table["change"], strict=True))
    assert change["comet_boost"] > 0.03 and change["ironside_steady_pace"] < -0.03, change
    assert table["significant"].all()


# --- (4) unknown ids ---------------------------------------------------------------------------


def test_an_unknown_id_is_one_line_error(tmp_path):
    path = scenario(tmp_path, extra="bonus_card: warp_drive\n")
    with pytest.raises(UserError) as e:
        prepare(load_scenario(path))
    message = str(e.value)
    assert "bonus_card: no driver or ability card with id 'warp_drive'" in message and "\n" not in message
    with pytest.raises(UserError, match="no item with id 'warp_drive'"):
        strength(scenario(tmp_path, "p"), ["warp_drive"], options=ExperimentOptions(out=tmp_path / "o", jobs=1))
    assert not (tmp_path / "o").exists()


def test_an_id_that_is_both_a_driver_and_a_card_is_refused(tmp_path):
    db = tmp_path / "db.yaml"
    db.write_text((ROOT / "shuffle_gp.yaml").read_text().replace("id: blaze_ram\n", "id: ironside\n"))
    path = (
        scenario(tmp_path, extra="bonus_card: ironside\n").read_text().replace(str(ROOT / "shuffle_gp.yaml"), str(db))
    )
    (tmp_path / "both.yaml").write_text(path)
    with pytest.raises(UserError, match="'ironside' is both a driver and an ability card"):
        prepare(load_scenario(tmp_path / "both.yaml"))
    plain = tmp_path / "plain.yaml"
    plain.write_text(path.replace("bonus_card: ironside\n", ""))
    with pytest.raises(UserError, match="both a driver and an ability card"):
        GAME.strength_items(catalog(prepare(load_scenario(plain))))


def test_the_trace_says_what_the_receiving_seat_is_given(tmp_path):
    from balance.games.shuffle_gp.trace import trace_game

    text = trace_game(load_scenario(scenario(tmp_path, extra="bonus_card: comet\n", games=8, chunk=8)), 5, 3)
    assert f"Setup (strength experiment): seat {who(8)[3]} is given Comet" in text
    text = trace_game(load_scenario(scenario(tmp_path, "c", "bonus_card: ace_dodge\n", games=8, chunk=8)), 5, 3)
    assert f"Setup (strength experiment): seat {who(8)[3]} gets an extra Dodge" in text
    assert "strength experiment" not in trace_game(load_scenario(scenario(tmp_path, "p", games=8, chunk=8)), 5, 3)


def item_run(path, item: str, out: Path) -> None:
    """The item's games as a run on disk, out/ITEM (balance strength plays them
    in memory), for the tests that compare its logs with the baseline's."""
    from balance.experiments.strength import with_item
    from balance.runner import RunOptions, run

    run(with_item(load_scenario(path), item), RunOptions(out=out / item, jobs=1))
