"""`balance strength` for Heat: one player car of each race starts with an
extra copy of a card; everything else about the race is drawn as without it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.games.chance import Streams
from balance.games.heat import GAME
from balance.games.heat.bots import bot_table, resolve_profiles
from balance.games.heat.chunk import catalog, prepare, strength_items
from balance.games.heat.state import State
from balance.games.heat.trace import trace_game
from balance.scenario import load_scenario
from balance.seeding import bonus_seat

from . import heat
from .conftest import ROOT
from .heat import phases, setup, simulate

BOTS = ["balanced", "aggressive", "cautious"]
SCENARIO = f"""name: hs
game: heat
cards: {ROOT / "heat.yaml"}
players: 3
bots: [balanced, aggressive, cautious]
overrides: {{rules.track: italia}}
games: 40
seed: 2
chunk_size: 20
"""

# A duel with a planted strong card (Speed 12 that lifts this round's corner
# limits by 10 and cools 5) and a planted harmful one (a Speed 2 that the bots
# like for slowing into corners, but that drops the corner limits by 10).
PLANTED = f"""name: planted
game: heat
cards: {ROOT / "heat.yaml"}
players: 2
bots: [balanced, aggressive]
overrides:
  rules.track: italia
  cards.upgrade_5.speed: 12
  cards.upgrade_5.effects: [{{op: corner_limit, amount: 10}}, {{op: cooldown, amount: 5}}]
  cards.upgrade_0.speed: 2
  cards.upgrade_0.effects: [{{op: corner_limit, amount: -10}}]
games: 300
seed: 3
chunk_size: 300
"""


def _write(tmp_path, text: str, name: str = "s.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("garage,card", [(False, "upgrade_5"), (True, "brakes_1"), (False, "stress")])
def test_the_bonus_changes_only_the_receiving_cars_setup(garage, card):
    """No card is a null item in Heat (any extra copy changes the car's draws),
    so the pairing shows as: after setup, the two batches differ only in the
    receiving car's deck and hand, by exactly the one copy, and the generator
    has drawn the same numbers (so the other cars' draft and hands are the same)."""
    t = heat.tables(track="italia", garage_module=garage)
    bots = bot_table(resolve_profiles(None), BOTS, t)
    G = 64
    seats = np.tile(np.arange(3, dtype=np.int16), (G, 1))
    who = bonus_seat(5, np.arange(G), 3)
    k = t.cards.index(card)
    plain_race = phases(t, bots, Streams(5, 0, G), 3)
    plain = setup(plain_race, seats)
    bonus_race = phases(t, bots, Streams(5, 0, G), 3)
    bonus = setup(bonus_race, seats, (k, who))
    rows = np.arange(G)
    others = np.ones((G, 3), bool)
    others[rows, who] = False
    for f in dataclasses.fields(State):
        a, b = getattr(plain, f.name), getattr(bonus, f.name)
        if f.name in ("deck", "hand"):
            assert np.array_equal(a[others], b[others]), f.name
        elif f.name != "bonus":
            assert np.array_equal(a, b), f.name
    extra = (bonus.deck + bonus.hand - plain.deck - plain.hand)[rows, who]
    assert np.array_equal(extra, np.eye(len(t.cards.ids), dtype=extra.dtype)[np.full(G, k)])
    assert bonus.bonus.sum() == G and (bonus.bonus[rows, who, k] == 1).all()
    drew, bonus_drew = plain_race.draws, bonus_race.draws  # each race's draws, by purpose and seat
    assert drew.keys() == bonus_drew.keys() and all(np.array_equal(drew[k], bonus_drew[k]) for k in drew), (
        "the same random numbers were drawn"
    )
    if garage:
        assert plain.drafted.sum() == 3 * 3 * G, "the draft is the same, three upgrades each"


def test_the_rules_hold_with_a_bonus_copy():
    t = heat.tables(track="usa", garage_module=True)
    bots = bot_table(resolve_profiles(None), ["balanced", "aggressive", "random", "cautious"], t)
    seats = (np.arange(4)[None, :] + np.arange(60)[:, None]) % 4
    bonus = (t.cards.index("turbocharger_1"), bonus_seat(9, np.arange(60), 4))
    # the rules checker (compiled rules.rule_broken) after every turn counts the receiving car's extra copy
    st, broken = simulate(t, bots, seats, Streams(9, 0, 60), bonus=bonus)
    assert broken == [] and st.finished.any(axis=1).all()


def test_the_receiving_car_gets_the_card(tmp_path):
    path = _write(tmp_path, SCENARIO + "bonus_card: upgrade_5\n")
    scenario = load_scenario(path)
    prep = prepare(scenario)
    tables = GAME.play_chunk(prep, scenario, 1, 20, 20, Streams(2, 20, 20))
    cards = tables["cards"].to_pandas()
    starts = cards[(cards["event"] == "start") & (cards["card"] == "upgrade_5")]
    copies = starts.groupby(["game_id", "seat"]).size().unstack(fill_value=0)
    who = bonus_seat(2, np.arange(20, 40), 3)
    expected = np.ones((20, 3), int)
    expected[np.arange(20), who] = 2  # the deck's own Speed 5 and the bonus copy
    assert np.array_equal(copies.to_numpy(), expected)
    assert set(np.bincount(who, minlength=3)) != {0}, "every seat can receive"
    # balance trace says who got it, and with no bonus_card says nothing of it
    car = int(bonus_seat(2, np.array([25]), 3)[0])
    assert f"balance strength: car {car} starts with an extra Speed 5 (upgrade_5)" in trace_game(scenario, 2, 25)
    plain = load_scenario(_write(tmp_path, SCENARIO, "plain.yaml"))
    assert "balance strength" not in trace_game(plain, 2, 25)


def test_a_strong_card_gains_and_a_harmful_one_loses(tmp_path):
    path = _write(tmp_path, PLANTED)
    # the harmful card costs about 10 points (-12 to -8 at 3,000 games); 1,500 games: +-3
    table = strength(
        path, ["upgrade_0", "upgrade_5"], options=ExperimentOptions(games=1500, out=tmp_path / "out", jobs=1)
    ).table
    change = dict(zip(table["card"], table["change"], strict=True))
    high = dict(zip(table["card"], table["ci_high"], strict=True))
    low = dict(zip(table["card"], table["ci_low"], strict=True))
    assert change["upgrade_5"] > 0.2 and low["upgrade_5"] > 0, change
    assert change["upgrade_0"] < -0.05 and high["upgrade_0"] < 0, change
    assert table["card"].to_list() == ["upgrade_5", "upgrade_0"]
    assert (table["games"] == 1500).all()


def test_unknown_cards_are_one_line_errors(tmp_path):
    with pytest.raises(UserError, match="bonus_card: no card with id 'nope'") as e:
        prepare(load_scenario(_write(tmp_path, SCENARIO + "bonus_card: nope\n")))
    assert "\n" not in str(e.value)
    with pytest.raises(UserError, match="it is a heavy_rain card, in races only with rules.expansions: .heavy_rain."):
        prepare(load_scenario(_write(tmp_path, SCENARIO + "bonus_card: air_intake_1\n")))
    with pytest.raises(UserError, match="no item with id 'warp_drive'"):
        strength(_write(tmp_path, SCENARIO), ["warp_drive"], options=ExperimentOptions(out=tmp_path / "o", jobs=1))
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("bots", ["[balanced, legend, aggressive]", "{pool: [balanced, legend]}"])
def test_with_legends_in_the_field_a_car_with_a_deck_takes_the_item(tmp_path, bots):
    """Issue 33: heat-usa's field has Legends; the item goes to a car with a
    deck, drawn among them (seeding.bonus_seat's eligible slots), the same car
    in the engine, in memory and in the analysis of a run on disk."""
    from balance.analysis.strength import controlled, receiving_seat_wins
    from balance.experiments.strength import with_item
    from balance.logs import load_run
    from balance.runner import RunOptions, run

    path = _write(tmp_path, SCENARIO.replace("[balanced, aggressive, cautious]", bots))
    table = strength(path, ["upgrade_5"], options=ExperimentOptions(games=96, out=tmp_path / "o", jobs=1)).table
    given = tmp_path / "given"
    run(with_item(load_scenario(path), "upgrade_5"), RunOptions(out=given, games=96, jobs=1))
    legends = frozenset({"legend"})
    scenario = load_scenario(path)
    wins = receiving_seat_wins(load_run(given), scenario.model.seed, scenario.model.players, legends)
    base = receiving_seat_wins(load_run(tmp_path / "o" / "baseline"), scenario.model.seed, 3, legends)
    players = load_run(given)["players"].collect().sort("game_id", "seat")
    assert wins.height == 96 and base.height == 96
    bots = players["bot"].to_numpy().reshape(96, 3)
    picked = bonus_seat(scenario.model.seed, np.arange(96), 3, bots != "legend")
    assert "legend" not in set(bots[np.arange(96), picked]), "never a Legend"
    assert "legend" in set(bots.ravel()), "though Legends race"
    w, b = wins.sort("game_id"), base.sort("game_id")
    effect, _ = controlled(w["won"].cast(float).to_numpy(), b["won"].cast(float).to_numpy(), b["expected"].to_numpy())
    assert table["change"].item() == pytest.approx(effect.mean()), "in memory as on disk"


def test_the_items_are_the_studied_cards(tmp_path):
    prep = prepare(load_scenario(_write(tmp_path, SCENARIO)))
    items = strength_items(catalog(prep))
    assert [i["id"] for i in items] == ["speed_1", "speed_2", "speed_3", "speed_4", "stress", "upgrade_0", "upgrade_5"]
    assert {i["id"]: i["kind"] for i in items}["upgrade_5"] == "upgrade"
    assert {i["kind"] for i in items} == {"card", "upgrade"}
    assert all(i["how"] == "starts with one extra copy in its deck" for i in items)
    garage = SCENARIO.replace("{rules.track: italia}", "{rules.track: italia, rules.garage_module: true}")
    prep = prepare(load_scenario(_write(tmp_path, garage)))
    items = strength_items(catalog(prep))
    assert len(items) == 46 and {i["kind"] for i in items} == {"upgrade"}  # BGA's 46 designs (two copies each)
    assert len({i["id"] for i in items}) == len(items)
    assert GAME.strength_items is strength_items
