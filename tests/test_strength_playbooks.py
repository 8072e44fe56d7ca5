"""`balance strength` on Horsepower's Playbooks: the receiving seat holds the
Playbook from the start instead of the one it drafted (or beside it, with the
scenario's bonus_playbook: extra); the draft and every other random draw are
those of the game without it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.games.chance import Streams
from balance.games.horsepower import GAME
from balance.games.horsepower.chunk import prepare
from balance.games.horsepower.compiled import simulate
from balance.games.horsepower.draft import Bonus
from balance.logs import load_run
from balance.runner import RunOptions, run
from balance.scenario import load_scenario
from balance.seeding import bonus_seat

from . import hp
from .conftest import CARDS, ROOT

SCENARIO = f"""name: pb
game: horsepower
cards: {CARDS}
players: 4
bots: [racer, economist, saboteur, balanced]
games: 300
seed: 11
chunk_size: 300
"""


def _scenario(tmp_path, extra: str = ""):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO + extra)
    return path


def test_items_are_the_parts_deck_then_the_playbooks(tmp_path):
    from balance.experiments.strength import strength_items

    prep = prepare(load_scenario(_scenario(tmp_path)))
    catalog = GAME.catalog(prep)
    items = strength_items(GAME, catalog)
    parts = [c["id"] for c in catalog["cards"] if c["group"] == "parts" and c["count"]]  # the Parts Deck cards
    cards = [i for i in items if i["kind"] == "card"]
    assert [c["id"] for c in cards] == parts and items[: len(cards)] == cards and not any(c.get("more") for c in cards)
    books = items[len(cards) :]
    assert all(b.get("more") for b in books)  # measured with --all
    assert [b["id"] for b in books] == list(prep.tables.playbooks.ids)
    assert {(b["kind"], b["how"]) for b in books} == {("Playbook", "holds this Playbook instead of the one it drafted")}
    assert len({i["id"] for i in items}) == len(items)


@pytest.mark.parametrize("instead", [True, False])
def test_setup_is_the_same_but_for_the_receiving_seats_playbook(instead):
    """Pairing: same seed, same draws (the same draws made, purpose by purpose),
    the same draft for every seat; only the receiving seat's Playbooks differ:
    the given one for its drafted one (nothing, where it drafted the given
    one), or the given one beside it."""
    t = hp.tables()
    b = t.playbooks.ids.index("rocket_fuel")
    G, P = 64, 4
    who = bonus_seat(3, np.arange(G), P)
    states, rngs = [], []
    for bonus in (None, Bonus(-1, b, who, instead)):
        ctx, _ = hp.batch(t, P, 1)  # a context with the robot bots; the batch below is set up afresh
        ctx.streams = Streams(5, 0, G)
        states.append(hp.setup(ctx, np.tile(np.arange(P, dtype=np.int16), (G, 1)), bonus))
        rngs.append(ctx.draws)  # each game's draws made, by purpose and seat
    base, with_pb = states
    assert rngs[0].keys() == rngs[1].keys() == set(range(G))
    assert all(np.array_equal(rngs[0][g], rngs[1][g]) and rngs[0][g].any() for g in rngs[0])
    for field in dataclasses.fields(base):
        if field.name != "playbooks":
            assert np.array_equal(getattr(base, field.name), getattr(with_pb, field.name)), field.name
    diff = with_pb.playbooks.astype(int) - base.playbooks
    expected = np.zeros_like(diff)
    expected[np.arange(G), who, b] += 1
    if instead:
        expected[np.arange(G), who, base.drafted_playbook[np.arange(G), who]] -= 1
    assert np.array_equal(diff, expected)
    assert (with_pb.playbooks.sum(axis=2) - base.playbooks.sum(axis=2)).sum() == (0 if instead else G)


def test_a_playbook_that_does_nothing_changes_no_game():
    """Pairing over whole games: a Playbook with no effect (+0 Drive) beside the
    drafted one, and no Playbook that counts Playbooks held, gives the very same games."""

    def dud(data):
        data["playbooks"] = [p for p in data["playbooks"] if p["id"] != "seasoned_veteran"]
        data["playbooks"].append(
            {"id": "dud", "name": "Dud", "count": 0, "text": "nothing", "effects": [
                {"when": "always", "op": "drive", "amount": 0}
            ]}
        )  # fmt: skip

    t = hp.tables(dud)
    ctx, _ = hp.batch(t, 4, 1)
    seats = np.tile(np.arange(4, dtype=np.int16), (200, 1))
    who = bonus_seat(1, np.arange(200), 4)
    plain = simulate(t, ctx.bots, seats, Streams(9, 0, 200))
    given = simulate(
        t, ctx.bots, seats, Streams(9, 0, 200), bonus=Bonus(-1, t.playbooks.ids.index("dud"), who, instead=False)
    )
    assert np.array_equal(plain.winner, given.winner)
    assert np.array_equal(plain.turns, given.turns) and np.array_equal(plain.coins, given.coins)
    assert np.array_equal(given.playbooks[np.arange(200), who, -1], np.ones(200))


def test_the_receiving_seat_holds_the_playbook_in_the_logs(tmp_path):
    path = _scenario(tmp_path, "bonus_card: rocket_fuel\n")
    small = path.read_text().replace("games: 300", "games: 40").replace("chunk_size: 300", "chunk_size: 40")
    path.write_text(small)
    run(path, RunOptions(out=tmp_path / "run", jobs=1, force=True))
    players = load_run(tmp_path / "run")["players"].collect().sort("game_id", "seat")
    who = bonus_seat(11, np.arange(40), 4)
    holds = players["playbooks"].list.contains("rocket_fuel").to_numpy().reshape(40, 4)
    assert holds[np.arange(40), who].all()
    # the others hold it only where they drafted or pit-stopped into the one copy of the deck
    assert holds.sum() - 40 <= 40


def test_rocket_fuel_helps_and_a_leaking_tank_hurts(tmp_path):
    """A planted strong Playbook (+3 Drive every turn) and the same one at -3."""
    fuel = strength(_scenario(tmp_path), ["rocket_fuel"], options=ExperimentOptions(out=tmp_path / "a", jobs=1)).table
    change = fuel["change"].item()
    assert change > 0.1, fuel
    leak = tmp_path / "leak.yaml"
    leak.write_text(SCENARIO + "overrides: {playbooks.rocket_fuel.effects.0.amount: -3}\n")
    leaking = strength(leak, ["rocket_fuel"], options=ExperimentOptions(out=tmp_path / "b", jobs=1)).table
    assert leaking["change"].item() < -0.05, leaking
    assert fuel["kind"].item() == "Playbook"


def test_an_unknown_item_is_one_line(tmp_path):
    with pytest.raises(UserError) as err:
        prepare(load_scenario(_scenario(tmp_path, "bonus_card: warp_drive\n")))
    message = str(err.value)
    assert "bonus_card: no card with id 'warp_drive', nor a Playbook" in message and "\n" not in message.strip()


def test_a_playbook_id_may_not_be_a_card_id():
    def clash(data):
        data["playbooks"][0]["id"] = data["cards"][0]["id"]

    with pytest.raises(UserError) as err:
        hp.tables(clash)
    assert "duplicate id" in str(err.value) and "\n" not in str(err.value).strip()


def test_how_a_playbook_is_given_is_horsepowers_setting_alone(tmp_path):
    assert load_scenario(_scenario(tmp_path)).model.bonus_playbook == "instead", "the default: against the seat's pick"
    heat = tmp_path / "heat.yaml"
    heat.write_text(
        f"name: h\ngame: heat\ncards: {ROOT / 'heat.yaml'}\nplayers: 2\nbots: [balanced, cautious]\nbonus_playbook: extra\n"
    )
    with pytest.raises(UserError) as err:
        load_scenario(heat)
    assert "bonus_playbook is Horsepower's" in str(err.value) and "\n" not in str(err.value).strip()
