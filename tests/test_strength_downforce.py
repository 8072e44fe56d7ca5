"""`balance strength` for Downforce (docs/strength_downforce.md): one seat of
each game races with a power card in place of its own, or is dealt one extra
copy of a speed card; the same games without it are the pairing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.games import get_game
from balance.games.chance import Streams
from balance.games.downforce.bots import bot_table, resolve_profiles
from balance.games.downforce.chunk import prepare
from balance.games.downforce.compile import compile_database
from balance.games.downforce.schema import load_database
from balance.games.downforce.state import Bonus
from balance.logs import load_run
from balance.scenario import load_scenario
from balance.seeding import bonus_seat

from .conftest import ROOT
from .downforce import deal, grid_cars, phases, run_auction, simulate

DATABASE = ROOT / "downforce.yaml"
T = compile_database(load_database(DATABASE))
BOTS = ["balanced", "shark", "miser", "random"]


def scenario_text(cards: Path = DATABASE, games: int = 300, extra: str = "", bots=BOTS) -> str:
    return (
        f"name: dfs\ngame: downforce\ncards: {cards}\nplayers: {len(bots)}\nbots: [{', '.join(bots)}]\n"
        f"games: {games}\nseed: 11\nchunk_size: 100\n{extra}"
    )


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def item_run(path, item: str, out: Path) -> None:
    """The item's games as a run on disk, out/ITEM (balance strength plays them
    in memory), for the tests that compare its logs with the baseline's."""
    from balance.experiments.strength import with_item
    from balance.runner import RunOptions, run

    run(with_item(load_scenario(path), item), RunOptions(out=out / item, jobs=1))


def frames(out: Path, item: str) -> tuple[dict[str, pl.DataFrame], dict[str, pl.DataFrame]]:
    """(baseline, variant) log tables of a strength run, sorted the same way."""
    keys = {"games": ["game_id"], "players": ["game_id", "seat"]}

    def read(path: Path) -> dict[str, pl.DataFrame]:
        run = load_run(path)
        return {name: run[name].collect().sort(by) for name, by in keys.items()}

    return read(out / "baseline"), read(out / item)


# --- what a designer can tune ------------------------------------------------------------


def test_the_items_are_the_powers_then_the_regular_speed_cards(tmp_path):
    game = get_game("downforce")
    items = game.strength_items(game.catalog(prepare(load_scenario(write(tmp_path, scenario_text())))))
    ids = [i["id"] for i in items]
    assert ids[:6] == list(T.powers.ids) and ids[6:] == [f"s{k:02d}" for k in range(1, 43)]
    assert len(set(ids)) == len(ids), "ids unique across kinds"
    assert {i["kind"] for i in items[:6]} == {"power"} and {i["kind"] for i in items[6:]} == {"speed card"}
    assert all(i["how"] for i in items) and items[0]["name"] == "Aggressive"
    assert game.strength_items is not None


# --- (4) an unknown id --------------------------------------------------------------------


@pytest.mark.parametrize(
    "item,message",
    [
        ("warp", "bonus_card: no speed card or power card with id 'warp'"),
        ("eight_red", "bonus_card: 'eight_red' is a Speed-8 card"),
    ],
)
def test_an_unknown_item_is_a_one_line_error(tmp_path, item, message):
    path = write(tmp_path, scenario_text(extra=f"bonus_card: {item}\n"))
    with pytest.raises(UserError) as caught:
        prepare(load_scenario(path))
    text = str(caught.value).strip()
    assert message in text and "\n" not in text, text


def test_strength_refuses_an_unknown_item_before_any_game(tmp_path):
    with pytest.raises(UserError, match="no item with id 'warp'"):
        strength(write(tmp_path, scenario_text()), ["warp"], options=ExperimentOptions(out=tmp_path / "o", jobs=1))
    assert not (tmp_path / "o").exists()


# --- (1) pairing --------------------------------------------------------------------------


def test_a_power_that_does_nothing_changes_no_game(tmp_path):
    """Determined on a track of curves only never fires: with it the only power
    card, holding it is holding nothing, so every game must come out exactly as
    in the baseline (same deal, auction, race, bets, money, winner)."""
    text = DATABASE.read_text().replace("curve: false", "curve: true")
    start, end = text.index("\npowers:\n"), text.index("\n# The tracks.")
    text = text[:start] + "\npowers:\n  - {id: determined, name: Determined, text: t, bonus: 1}\n" + text[end:]
    cards = write(tmp_path, text, "curves.yaml")
    path = write(tmp_path, scenario_text(cards, games=200))
    table = strength(path, ["determined"], options=ExperimentOptions(out=tmp_path / "o", jobs=1)).table
    item_run(path, "determined", tmp_path / "o")
    base, with_it = frames(tmp_path / "o", "determined")
    assert base["games"].equals(with_it["games"])
    assert base["players"].drop("power").equals(with_it["players"].drop("power"))
    row = table.row(0, named=True)
    assert row["change"] == 0 and row["games"] == 200 and row["win_rate_with"] == row["win_rate_without"]
    # (3) and the receiving seat did hold it, in every game
    players = with_it["players"]
    who = bonus_seat(11, players["game_id"].unique().sort().to_numpy(), 4)
    held = players.filter(pl.col("seat") == pl.Series(np.repeat(who, 4)).cast(pl.Int8))["power"]
    assert (held == "determined").all() and len(held) == 200


def test_a_power_changes_only_the_receiving_seats_power_before_the_race(tmp_path):
    """A real power: the auction (bids, buyers, prices, the power sold with
    each car), the grid and every other seat's kept power are the baseline's
    in every game; the receiving seat holds the power."""
    path = write(tmp_path, scenario_text(games=200))
    strength(path, ["tricky"], options=ExperimentOptions(out=tmp_path / "o", jobs=1))
    item_run(path, "tricky", tmp_path / "o")
    base, with_it = frames(tmp_path / "o", "tricky")
    setup = [c for c in base["games"].columns if c.endswith(("_owner", "_price", "_auction", "_power", "_start"))]
    assert base["games"].select(setup).equals(with_it["games"].select(setup))
    seat = np.repeat(bonus_seat(11, np.arange(200), 4), 4) == np.tile(np.arange(4), 200)
    assert (with_it["players"].filter(pl.Series(seat))["power"] == "tricky").all()
    others = ~pl.Series(seat)
    assert base["players"].filter(others)["power"].equals(with_it["players"].filter(others)["power"])
    assert not base["players"].filter(pl.Series(seat))["power"].eq("tricky").all(), "it replaced other powers"


def bots(players: int):
    return bot_table(resolve_profiles(None), BOTS[:players], T)


def test_a_speed_card_changes_only_the_receiving_seats_hand(tmp_path):
    """No speed card is a null item (an extra card is an extra turn), so the
    pairing shown is the setup's: with the same generator every hand is dealt
    as in the baseline, the receiving one with one more copy; the Speed-8 and
    power piles (which car comes up with which power) and the grid are the
    baseline's; only the receiving seat's auction may change (its bids)."""
    G, N = 300, 4
    card = T.cards.index("s17")
    who = bonus_seat(11, np.arange(G), N)
    states = []
    for bonus in (None, Bonus(who, card=card)):
        m, st = phases(T, N, G, BOTS[:N], seed=5)
        deal(m, st, bonus)
        hands = st.hand.copy()
        run_auction(m, st, bonus=bonus)
        grid_cars(m, st)
        states.append((hands, st))
    (hand0, st0), (hand1, st1) = states
    rows = np.arange(G)
    expected = hand0.copy()
    expected[rows, who, card] += 1
    assert np.array_equal(hand1, expected)
    assert (hand1[rows, who].sum(axis=1) == 11).all() and (hand0.sum(axis=2) == 10).all()
    by_round = np.argsort(st0.sold, axis=1), np.argsort(st1.sold, axis=1)
    assert np.array_equal(*by_round), "the same car comes up in each round"
    assert np.array_equal(st0.car_power, st1.car_power) and np.array_equal(st0.start, st1.start)
    assert (st0.owner != st1.owner).any(axis=1).mean() < 0.5, "most auctions as in the baseline"


# --- (3) the receiving seat holds the card all race -------------------------------------


def test_the_extra_card_is_held_and_played_within_the_rules():
    G, N = 200, 4
    card = T.cards.index("s32")
    who = bonus_seat(3, np.arange(G), N)
    seats = np.tile(np.arange(N, dtype=np.int16), (G, 1))
    # the rules checker counts the receiving seat's extra copy beyond the deal
    st, broken = simulate(T, bots(N), seats, Streams(3, 0, G), bonus=Bonus(who, card=card))
    assert not broken, broken[:3]
    held = st.hand + st.played
    rows = np.arange(G)
    assert (held[rows, who][:, ~T.cards.is_speed8].sum(axis=1) == 11).all()
    assert (held[rows, who, card] >= 1).all()
    copies = held[:, :, card].sum(axis=1)  # the box's copy (unless among the 2 left out) and the extra one
    assert set(copies.tolist()) == {1, 2} and (copies == 2).mean() > 0.8


# --- (2) strong and weak items ------------------------------------------------------------


def test_a_strong_item_helps_and_a_weak_one_hurts(tmp_path):
    """s01 made a single wild moving 20 (its holder's own car) and Aggressive
    with a bonus of 10 are strong; Tricky held in place of a power that is
    often one of the two boosted ones (Aggressive, Determined) is a loss."""
    extra = (
        "overrides:\n"
        "  speed_cards.s01.moves: [{car: wild, speed: 20}]\n"
        "  powers.aggressive.bonus: 10\n"
        "  powers.determined.bonus: 10\n"
    )
    path = write(tmp_path, scenario_text(games=400, extra=extra, bots=["balanced", "shark", "miser", "balanced"]))
    table = strength(path, ["s01", "aggressive", "tricky"], options=ExperimentOptions(out=tmp_path / "o", jobs=1)).table
    change = dict(zip(table["card"], table["change"], strict=True))
    low = dict(zip(table["card"], table["ci_low"], strict=True))
    high = dict(zip(table["card"], table["ci_high"], strict=True))
    assert low["s01"] > 0 and low["aggressive"] > 0, change
    assert high["tricky"] < 0, change
    assert table["card"].to_list()[-1] == "tricky"
