"""The compiled Downforce engine (issue 44) plays the very games the numpy
lockstep engine played: a game is a function of (scenario, seed, game id),
whichever engine plays it. At commit 8404040 every array of the final state
and every card event of both engines were compared over every player count,
both tracks, the rule readings a designer can turn (auction ties, wild bids,
a cap on the race), powers stacked so that each is held, the strength bonus
of each kind and every bot profile, and the traces line by line; their
digests, recorded there, stay as the regression test of the one engine left
(with the golden results of tests/golden/results/). The rules checker runs on
the compiled states."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import yaml

from balance.games.chance import Streams
from balance.games.downforce import compiled
from balance.games.downforce.bots import bot_table, resolve_profiles
from balance.games.downforce.compile import compile_database
from balance.games.downforce.schema import load_database
from balance.games.downforce.state import Bonus
from balance.games.events import Events
from balance.games.recorder import Recorder

from .conftest import ROOT
from .digests import digest

PROFILES = ["random", "balanced", "shark", "miser", "tuned"]


def database(tmp_path, powers=None, **rules):
    doc = yaml.safe_load((ROOT / "downforce.yaml").read_text())
    doc["rules"].update(rules)
    if powers is not None:
        doc["powers"] = [p for p in doc["powers"] if p["id"] in powers]
    path = tmp_path / "downforce.yaml"
    path.write_text(yaml.safe_dump(doc))
    return compile_database(load_database(path))


def seats_for(players: int, games: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, len(PROFILES), (games, players)).astype(np.int16)


# Each case: (database rules and powers, players, games, seed, bonus). The digests are of the final state
# and the card events of the compiled engine, recorded at commit 8404040, where every one of these games was
# proven equal, array by array, to the numpy lockstep engine's (since removed: one engine per game).
CASES = {
    "players-2": ({}, 2, 160, 2, None),
    "players-3": ({}, 3, 160, 3, None),
    "players-4": ({}, 4, 160, 4, None),
    "players-5": ({}, 5, 160, 5, None),
    "players-6": ({}, 6, 160, 6, None),
    "random-ties-no-wild-bids": ({"auction_ties": "random", "wild_bids": False}, 4, 120, 11, None),
    "ridge": ({"track": "ridge"}, 4, 120, 11, None),
    "capped": ({"max_turns": 20}, 4, 120, 11, None),  # the cap cuts races short: `cut`
    "strategic-tricky": ({"powers": ["strategic", "tricky"]}, 3, 120, 13, None),
    "cunning-determined": ({"powers": ["cunning", "determined"]}, 3, 120, 13, None),
    "unpredictable-aggressive": ({"powers": ["unpredictable", "aggressive"]}, 3, 120, 13, None),
    "no-powers": ({"powers": []}, 3, 120, 13, None),
    "bonus-card": ({}, 4, 100, 17, ("card", 5)),
    "bonus-power": ({}, 4, 100, 17, ("power", "tricky")),
}
DIGESTS = {
    "players-2": "3a52ff5bd20fa77223305f7aa1acb3a5",
    "players-3": "f76f0b7a68f215b5e775827dacfd0e1e",
    "players-4": "4fc0ba694d862b15cf9b6545c70796e3",
    "players-5": "8cb7135b3d5d5acc9184760f9bf8d2cf",
    "players-6": "a71fdce13cb30c289834a45f3d1abd61",
    "random-ties-no-wild-bids": "d6fb9f9b6064c62e1f75e3039437b7bb",
    "ridge": "5fb8c90c12f755da19ead171ee8eefa8",
    "capped": "9d71ca63193f1a9f4999e4650456b0c5",
    "strategic-tricky": "0ebc7536852feeb6b7ff0ccf43893488",
    "cunning-determined": "7b6c8d7cb8e13d4cfea07e1f7572dd4f",
    "unpredictable-aggressive": "b428e6688509e55546833df6fd790554",
    "no-powers": "04ab6221a4f9ad9089f35dc7c22f1db6",
    "bonus-card": "1a91ee569672db63fda67c4760880efb",
    "bonus-power": "bb93df76e7513ab506b2d777008b688a",
}


def play_case(tmp_path, name, events_per_game=None):
    settings, players, games, seed, bonus = CASES[name]
    rules = {k: v for k, v in settings.items() if k != "powers"}
    tables = database(tmp_path, powers=settings.get("powers"), **rules)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    if bonus is not None:
        who = np.arange(games) % players
        kind, item = bonus
        bonus = Bonus(who, card=item) if kind == "card" else Bonus(who, power=tables.powers.index(item))
    logged = Events()
    st = compiled.simulate(tables, bots, seats_for(players, games, seed), Streams(seed, 0, games), logged, bonus)
    return st, logged.arrays()


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_plays_the_games_proven_equal_to_the_numpy_engines(tmp_path, name):
    st, events = play_case(tmp_path, name)
    now = digest(st, compiled.STATE_FIELDS, events)
    assert now == DIGESTS[name], f"{name}: the games changed (now {now})"
    if name == "capped":
        assert st.cut.any() and not st.running.any()
    else:  # whole races, not a setup alone
        assert (st.place > 0).sum() > len(st.place) * 3 and len(events["game"]) > 20 * len(st.place)
    if name.startswith(("strategic", "cunning", "unpredictable")):  # each power of the pile is held in many games
        assert (np.bincount(st.power[st.power >= 0], minlength=2) > 30).all()


def test_a_game_with_more_events_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a game's events: every game overflows
    st, events = play_case(tmp_path, "players-3")
    assert digest(st, compiled.STATE_FIELDS, events) == DIGESTS["players-3"]


def test_progress_is_told_as_games_finish(tmp_path):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    finished: list[int] = []
    progress = lambda s: finished.append(int((~s.running).sum()))  # noqa: E731
    compiled.simulate(tables, bots, seats_for(2, 60, 1), Streams(1, 0, 60), progress=progress)
    assert finished[0] == compiled.PROGRESS_FIRST and finished[-1] == 60 and finished == sorted(finished)


def traced(tables, players: int, game: int, verbose: bool) -> list[str]:
    """Game `game` of a case traced alone (game 3 with a bonus card, game 4 with a bonus power)."""
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    seats = seats_for(players, game + 1, game)[game : game + 1]
    bonus = None
    if game == 3:
        bonus = Bonus(np.array([1]), card=2)
    elif game == 4:
        bonus = Bonus(np.array([0]), power=tables.powers.index("strategic"))
    rec = Recorder(watch=0, verbose=verbose)
    compiled.simulate(tables, bots, seats, Streams(game, game, 1), rec=rec, bonus=bonus)
    return rec.lines


# sha256 of the traces of 15 games (2, 4, 6 players, games 0-4), recorded where the numpy engine said the same
TRACE_DIGESTS = {False: "001b7b005813dcafa3c9ac1cda9e7f44", True: "a41381ef564f3e50479bc5d914a7fa4f"}


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_said(tmp_path, verbose):
    tables = database(tmp_path, auction_ties="random")
    said = [traced(tables, players, game, verbose) for players in (2, 4, 6) for game in range(5)]
    assert all(len(lines) > 20 for lines in said)
    text = "\n".join("\n".join(lines) for lines in said)
    if verbose:
        assert "    hands: seat 0:" in text
    assert "strength bonus: player 1 is dealt an extra" in text and "strength bonus: player 0 holds strategic" in text
    now = hashlib.sha256(text.encode()).hexdigest()[:32]
    assert now == TRACE_DIGESTS[verbose], f"the traces changed (now {now})"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_compiled_game_breaks_a_rule(tmp_path, players):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    broken: list[str] = []
    G = 300
    bonus = Bonus(np.arange(G) % players, card=4)
    compiled.simulate(tables, bots, seats_for(players, G, 3), Streams(players, 0, G), bonus=bonus, broken=broken)
    assert broken == []


def test_the_rules_checker_names_the_rule_a_state_breaks(tmp_path):
    from balance.games.downforce.compiled import rules, structs

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    st = compiled.simulate(tables, bots, seats_for(3, 4, 1), Streams(1, 0, 4))
    tab = compiled.tables_for(tables, bots, 3)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    before = np.zeros(6, np.int64)
    assert [rules.rule_broken(tab, arrays, g, before, -1, 0) for g in range(4)] == [0, 0, 0, 0]
    st.hand[0, 1, 0] += 1  # a card from nowhere
    st.paid[1, 0] += 1
    st.place[2, st.place[2].argmax()] = 0  # a finished car that is neither home nor on the board
    found = [rules.RULES[rules.rule_broken(tab, arrays, g, before, -1, 0) - 1] for g in range(3)]
    assert found == [
        "regular cards not conserved (hand + played = the deal)",
        "bids paid do not add up to the cars' prices",
        "a car neither on the board nor finished",
    ]
    far = np.full(6, 1 << 21, np.int64)  # every car was further along before: each moved back
    assert rules.RULES[rules.rule_broken(tab, arrays, 3, far, -1, 0) - 1] == "a car moved back"
