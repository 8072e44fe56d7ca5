"""Heat's Championship (issue 46 item 2; rulebook 004 "Champion" mode;
../shared/facts/heat-modules.md section 2): one test a rule, on the compiled
engine's phases (tests/heat.py) and on whole seasons (championship.py).
USA's corner lines: 11 (limit 7, Press letter A), 32 (3, B), 48 (3, C), 56 (2, D);
a lap is 69 spaces."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import UserError
from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.heat import championship, compiled
from balance.games.heat import schema as heat_schema
from balance.games.heat.bots import DRAFT_FEATURES, bot_table, resolve_profiles
from balance.games.heat.compiled import rules
from balance.games.heat.compiled import tables as compiled_tables
from balance.games.heat.log import finish_order

from . import heat
from .heat import car_turn, played
from .test_heat_rules import _cars_on

TITLE_SPONSOR = heat.season_race("season_1963", 0)  # USA: 3 Sponsorship cards dealt, press A (the line at 11)
ROBOT = {"robot": {"noise": 0.0, "boost": 0.0}}
HOARDER = {"hoarder": {"noise": 0.0, "draft": dict.fromkeys(DRAFT_FEATURES, 0.0)}}  # takes the Heat card shown
ONE = np.array([0])


def _sponsors(t, st, where: str = "hand") -> np.ndarray:
    """(G, P) the Sponsorship cards in each car's `where`."""
    return getattr(st, where)[..., t.cards.sponsors > 0].sum(axis=2)


def _turn(t, cards: dict[str, int], gear: int, start: int, engine: int = 6, others: dict | None = None, target=40):
    """Car 0 of a race on `start`, these cards face down, its turn played: (race, state, hand before); the
    other cars (car 1 by default) where `others` puts them."""
    others = others or {1: (-20, 0)}
    race, st = heat.batch(t, ["robot"] * (1 + max(others)), races=1, profiles=ROBOT)
    played(t, st, 0, cards, gear=gear, target=target)
    st.engine[:, 0] = engine
    _cars_on(st, 0, {0: (start, 0), **others})
    before = _sponsors(t, st)[0, 0]
    car_turn(race, st, ONE, ONE, np.array([False]))
    return race, st, before


def test_the_events_sponsorship_cards_are_dealt_into_the_opening_hand():
    """New title sponsor deals 3 into each player's opening hand, which is then drawn up to 7; the pile
    holds the rest, a Legend gets none."""
    _, st = heat.batch(TITLE_SPONSOR, ["robot", "robot", "legend"], races=4)
    assert (_sponsors(TITLE_SPONSOR, st)[:, :2] == 3).all() and (st.hand[:, :2].sum(axis=2) == 7).all()
    assert (st.hand[:, 2] == 0).all()
    assert (st.sponsors.sum(axis=1) == 35 - 6).all()


def test_pressing_a_corner_at_its_limit_plus_two_gains_a_sponsorship_card():
    """Speed 9 over A's line (limit 7) presses it: one card from the sponsor pile into hand."""
    _, st, before = _turn(TITLE_SPONSOR, {"speed_4": 1, "speed_3": 1, "speed_2": 1}, gear=3, start=2)
    assert st.pos[0, 0] == 11 and st.presses[0, 0] == 1 and st.sponsors_gained[0, 0] == 1
    assert _sponsors(TITLE_SPONSOR, st)[0, 0] == before + 1 and st.sponsors[0].sum() == 35 - 6 - 1


def test_pressing_reads_the_limit_after_road_conditions():
    """A Speed limit -1 token on A (7 -> 6, as the race's course holds it): speed 8 presses it."""
    t = heat.season_race("season_1963", 0, weather=True)
    race, st = heat.batch(t, ["robot", "robot"], races=1, profiles=ROBOT)
    st.limit[0, 0] = 6
    st.overheat[0, 0] = 0
    played(t, st, 0, {"speed_4": 2}, gear=2)
    _cars_on(st, 0, {0: (3, 0), 1: (-20, 0)})
    car_turn(race, st, ONE, ONE, np.array([False]))
    assert st.pos[0, 0] == 11 and st.presses[0, 0] == 1 and st.corner_heat[0, 0] == 2


def test_a_corner_crossed_at_its_limit_plus_one_is_not_pressed():
    _, st, before = _turn(TITLE_SPONSOR, {"speed_4": 2}, gear=2, start=3)
    assert st.pos[0, 0] == 11 and st.presses[0, 0] == 0 and _sponsors(TITLE_SPONSOR, st)[0, 0] == before


def test_a_corner_crossed_in_the_slipstream_is_pressed_whatever_the_speed():
    """Speed 4 from 5 to 9, beside the car on 10: the slipstream's 2 spaces take it over the line at 11."""
    _, st, _ = _turn(TITLE_SPONSOR, {"speed_4": 1}, gear=1, start=5, others={1: (10, 0)})
    assert st.slipstreams[0, 0] == 1 and st.pos[0, 0] == 11 and st.presses[0, 0] == 1


def test_a_turn_that_spins_out_gains_no_sponsorship_card():
    """Speed 12 over A with an empty Engine: a spin-out, so no card although the Speed pressed it."""
    _, st, before = _turn(TITLE_SPONSOR, {"speed_4": 3}, gear=3, start=2, engine=0)
    assert st.spin_outs[0, 0] == 1 and st.presses[0, 0] == 0 and _sponsors(TITLE_SPONSOR, st)[0, 0] == before


def test_a_played_sponsorship_card_goes_back_to_the_sponsor_pile_not_the_discard():
    t = TITLE_SPONSOR
    race, st = heat.batch(t, ["robot", "robot"], races=1, profiles=ROBOT)
    brakes = heat.card(t, "dramdo_brakes")
    st.hand[0, 0, brakes] += 1  # (it came from the pile)
    st.sponsors[0, brakes] -= 1
    st.received[0, 0, brakes] += 1
    heat.hand_of(t, st, 0, {"dramdo_brakes": 1, "speed_1": 1})
    pile = st.sponsors[0, brakes]
    played(t, st, 0, {"dramdo_brakes": 1}, gear=1, target=4)
    st.hand[0, 0, brakes] -= 1
    _cars_on(st, 0, {0: (40, 0), 1: (-20, 0)})
    car_turn(race, st, ONE, ONE, np.array([False]))
    assert st.played[0, 0, brakes] == 1 and st.discard[0, 0, brakes] == 0
    assert st.sponsors[0, brakes] == pile + 1 and st.pos[0, 0] == 44, "the brakes chose 4: the bot aimed at 4"


def test_the_speed_record_event_gains_a_card_for_a_turn_at_speed_15():
    t = heat.season_race("season_1961", 1)  # USA, New speed record
    _, st, before = _turn(t, {"speed_4": 3, "speed_3": 1}, gear=4, start=57)
    assert st.pos[0, 0] == 72 and st.presses[0, 0] == 0 and st.sponsors_gained[0, 0] == 1
    _, st, _ = _turn(t, {"speed_4": 2, "speed_3": 2}, gear=4, start=57)
    assert st.sponsors_gained[0, 0] == 0


def test_the_inauguration_gives_a_card_to_the_first_three_cars_to_complete_lap_one():
    t = heat.season_race("season_1961", 0)  # Great Britain, New grandstand inauguration
    lap = t.tracks[t.rules.track].spaces
    last = lap - 3  # a straight up to the line: its last corner is further back
    ahead = {1: (lap + 2, 0), 2: (lap + 4, 0), 3: (-20, 0)}
    _, st, _ = _turn(t, {"speed_4": 1}, gear=1, start=last, others=ahead)
    assert st.pos[0, 0] >= lap and st.sponsors_gained[0, 0] == 1, "two cars home before it: it is the third"
    ahead[3] = (lap + 6, 0)
    _, st, _ = _turn(t, {"speed_4": 1}, gear=1, start=last, others=ahead)
    assert st.pos[0, 0] >= lap and st.sponsors_gained[0, 0] == 0, "three cars before it"


def test_a_first_live_tv_race_gives_a_card_for_passing_three_cars_in_a_turn():
    t = heat.season_race("season_1963", 1)  # Great Britain, First live televised race
    race, st = heat.batch(t, ["robot"] * 4, races=1, profiles=ROBOT)
    played(t, st, 0, {"speed_4": 1, "speed_3": 1}, gear=2)
    st.engine[:, 0] = 9
    first_line = int(t.tracks[t.rules.track].corner_at[0])
    start = first_line + 1  # past the first corner: a straight ahead
    _cars_on(st, 0, {0: (start, 0), 1: (start + 2, 0), 2: (start + 3, 0), 3: (start + 5, 0)})
    car_turn(race, st, ONE, ONE, np.array([False]))
    assert st.pos[0, 0] == start + 7 and st.sponsors_gained[0, 0] == 1


def test_going_global_gives_two_cards_a_press():
    t = heat.season_race("season_1964", 0, expansions=["heavy_rain"])  # Japan, presses B and C
    line = int(t.tracks[t.rules.track].corner_at[2])  # Japan's B: the line at 17 (limit 2; A is the chicane)
    assert t.press == (2, 3)
    race, st = heat.batch(t, ["robot", "robot"], races=1, profiles=ROBOT)
    played(t, st, 0, {"speed_4": 1}, gear=1)
    st.engine[:, 0] = 9
    _cars_on(st, 0, {0: (line - 1, 0), 1: (-20, 0)})  # from 16 over B's line only, at speed 4 >= 2 + 2
    car_turn(race, st, ONE, ONE, np.array([False]))
    assert st.presses[0, 0] == 1 and st.sponsors_gained[0, 0] == 2


def test_smile_and_wave_gains_a_card_only_below_the_limit():
    t = heat.season_race("season_1965", 1)  # USA, press C (the line at 48, limit 3) below its limit
    _, st, _ = _turn(t, {"speed_2": 1}, gear=1, start=47)
    assert st.presses[0, 0] == 1
    _, st, _ = _turn(t, {"speed_4": 1, "speed_1": 1}, gear=2, start=45)
    assert st.presses[0, 0] == 0, "speed 5 over a limit of 3"


def test_a_spin_out_eliminates_under_title_sponsor_withdraws():
    t = heat.season_race("season_1963", 3)  # Italia, Title sponsor withdraws
    line, limit = int(t.tracks[t.rules.track].corner_at[0]), int(t.tracks[t.rules.track].limit[0])
    _, st, _ = _turn(t, {"speed_4": 3}, gear=3, start=line - 6, engine=0)
    assert st.spin_outs[0, 0] == 1 and st.out[0, 0] and st.finished[0, 0] and limit < 12
    place, points = championship.race_points(t, st, (9, 6, 4, 3, 2, 1))
    assert place[0, 0] == 2 and points[0, 0] == 0, "out of the race: last, no points"
    assert finish_order(st)[0].tolist() == [2, 1]


def test_under_an_eliminating_event_the_bots_crawl_rather_than_risk_the_race():
    """Italia under Title sponsor withdraws (a spin-out eliminates), 600 races of balanced, aggressive and
    cautious: each gear also has a plan of its slowest cards, and of plans that may spin out the slowest
    scores best. Cars out: balanced 41.8% -> 33.3%, cautious 17.8% -> 12.8%, aggressive 80.3% -> 77.0%
    (these races, before and after; the same seeds, so the figures are exact). Since the Garage pool holds
    BGA's Heat cards the same seeds reveal other markets: 30.8%, 15.0%, 77.0% (over 6,000 races 31.6%,
    13.3%, 76.4% with them, 32.2%, 13.3%, 76.6% without: the draws moved, not the bots)."""
    t = heat.season_race("season_1963", 3)
    names = ["balanced", "aggressive", "cautious"]
    bots = bot_table(resolve_profiles(None), names, t)
    seats = (np.arange(3)[None, :] + np.arange(600)[:, None]) % 3
    st = compiled.simulate(t, bots, seats, Streams(1, 0, 600))
    out = {n: float(st.out[seats == q].mean()) for q, n in enumerate(names)}
    assert out["balanced"] < 0.35 and out["cautious"] < 0.16 and out["aggressive"] < 0.79, out


def test_turbulent_winds_allow_a_slipstream_only_in_gears_three_and_four():
    t = heat.season_race("season_1964", 1, expansions=["heavy_rain"])  # France, Turbulent winds
    for gear, slipped in ((2, 0), (3, 1)):
        cards = {"speed_1": gear}
        _, st, _ = _turn(t, cards, gear=gear, start=2, others={1: (2 + gear + 1, 0)})
        assert st.slipstreams[0, 0] == slipped, gear


def _discard_step(t, hand: dict[str, int], gear: int):
    """Car 0's discard step with this hand, in `gear`; its bot discards cards worth less than 2.5."""
    profiles = {"robot": ROBOT["robot"] | {"discard_below": 2.5}}
    race, st = heat.batch(t, ["robot", "robot"], races=1, profiles=profiles)
    heat.hand_of(t, st, 0, hand)
    st.gear[:, 0] = gear
    _cars_on(st, 0, {0: (30, 0), 1: (-20, 0)})
    rules.discard_step(race.T, heat.arrays(st), 0, 0)
    return st


def test_chicanes_for_safety_allow_heat_to_be_discarded_beyond_the_gears_cooldown():
    t = heat.season_race("season_1964", 2, expansions=["heavy_rain"])  # Mexico: Heat may be discarded
    st = _discard_step(t, {"heat": 3, "speed_4": 4}, gear=2)  # gear 2's Cooldown returns 1 next turn
    assert st.hand[0, 0, heat.card(t, "heat")] == 1 and st.discard[0, 0, heat.card(t, "heat")] >= 2
    plain = _discard_step(heat.season_race("season_1963", 0), {"heat": 3, "speed_4": 4}, gear=2)
    assert plain.hand[0, 0, heat.card(t, "heat")] == 3, "no Heat discarded without the Event"


def test_hold_on_tight_discards_at_most_one_card_a_turn():
    t = heat.season_race("season_1965", 0, expansions=["tunnel_vision"])  # Great Britain, Hold on tight
    st = _discard_step(t, {"speed_1": 3, "speed_4": 4}, gear=1)
    assert st.hand[0, 0].sum() == 6 and st.hand[0, 0, heat.card(t, "speed_1")] == 2


def test_tunnel_vision_allows_stress_to_be_discarded():
    t = heat.season_race("season_1965", 2, expansions=["tunnel_vision"])  # Espana, Tunnel vision
    st = _discard_step(t, {"stress": 2, "speed_4": 5}, gear=1)  # space 30: no tunnel
    assert st.hand[0, 0, t.stress_card] == 0


def test_the_pressure_cooker_takes_heat_out_of_the_game_after_each_lap_but_the_last():
    t = heat.season_race("season_1965", 3, expansions=["tunnel_vision"])  # Nederland, 3 + 1 laps
    track = t.tracks[t.rules.track]
    assert track.laps == 4
    race, st = heat.batch(t, ["robot", "robot"], races=1, profiles=ROBOT)
    engine = int(st.engine[0, 0])
    st.round[0] = 1  # (a lap is noted with the round it was completed in)
    for lap, expected in ((1, engine - 1), (2, engine - 2), (3, engine - 3), (4, engine - 3)):
        st.pos[0, 0] = track.spaces * lap
        rules.laps_done(race.T, heat.arrays(st), race.X(0), 0, 0)
        assert st.engine[0, 0] == expected, lap


@pytest.mark.parametrize(
    "season, race, laps, heat_cards, stress, hand",
    [
        ("season_1961", 2, 2, 6, 3, 7),  # Italia, Drivers' strike: one lap fewer
        ("season_1962", 0, 3, 7, 3, 7),  # Italia, Engine restrictions lifted: +1 Heat
        ("season_1962", 1, 3, 6, 3, 8),  # Great Britain, Record crowds: one lap more, hand size 8
        ("season_1963", 2, 2, 4, 2, 6),  # France, New safety regulations: -2 Heat, -1 Stress, hand size 6
        ("season_1963", 3, 3, 6, 4, 7),  # Italia, Title sponsor withdraws: +1 Stress
    ],
)
def test_an_events_rule_changes_its_race(season, race, laps, heat_cards, stress, hand):
    t = heat.season_race(season, race)
    track = t.tracks[t.rules.track]
    assert (track.laps, track.heat, track.stress, t.rules.hand_size) == (laps, heat_cards, stress, hand)


def test_no_adrenaline_in_sudden_heavy_rain():
    t = heat.season_race("season_1964", 3, expansions=["heavy_rain"])
    bots = bot_table(resolve_profiles(ROBOT), ["robot"] * 4, t)
    assert compiled_tables.build(t, bots, 4).adrenaline_cars == 0
    plain = heat.season_race("season_1964", 0, expansions=["heavy_rain"])
    assert compiled_tables.build(plain, bots, 4).adrenaline_cars == 1


def test_press_letters_count_corners_a_chicane_once_and_wrap_past_the_last():
    """Italia's three corners: an E is its B (BGA's reading); Espana's board names five lines."""
    assert heat.season_race("season_1962", 0).press == (1,)
    espana = heat.season_race("season_1965", 2, expansions=["tunnel_vision"])
    assert espana.press == (1, 5), "A and C: the lines at 14 and 64"
    japan = heat.season_race("season_1964", 0, expansions=["heavy_rain"])
    assert japan.press == (2, 3), "A is the chicane (pressed at its exit), B and C the next two lines"


# --- whole seasons ---------------------------------------------------------------------------


def _seasons(season: str, games: int = 64, cars: int = 4, first: int = 0, events=None, bonus=None, **rules):
    """A batch of seasons as `balance run` plays them (Weather and Road Conditions in every race)."""
    races = tuple(heat.season_race(season, r, weather=True, **rules) for r in range(len(_season(season).races)))
    names = ["balanced", "aggressive", "cautious", "legend", "tuned"][:cars]
    bots = bot_table(resolve_profiles(None), names, races[0])
    ids = np.arange(first, first + games)
    seats = ((np.arange(cars)[None, :] + ids[:, None]) % cars).astype(np.int16)
    broken: list[str] = []
    result = championship.play_season(
        _season(season), dict(zip(_season(season).races, races, strict=True)), (9, 6, 4, 3, 2, 1), bots, seats,
        Streams(5, first, games), events, broken=broken,
        bonus=None if bonus is None else (races[0].cards.index(bonus), np.argmax(~bots.legend[seats], axis=1)),
    )  # fmt: skip
    return races, bots, seats, result, broken


def _season(season: str):
    return heat.validate_database(heat.parse_yaml(heat.yaml.safe_dump(heat._BASE), "t.yaml")).season(season)


def test_a_seasons_races_keep_the_rules_and_score_9_6_4_3():
    races, _, _, result, broken = _seasons("season_1961")
    assert broken == []
    base = np.array([9, 6, 4, 3])
    for r, st in enumerate(result.races):
        home = st.finished & ~st.out
        assert home.all(), "every race run to the end"
        bonus = np.array([2, 0, 0, 0]) if r == 2 else 0  # Drivers' strike: the winner +2
        assert (np.sort(result.points[r], axis=1)[:, ::-1] == base + bonus).all(), r
    assert (result.total == result.points.sum(axis=0)).all()
    assert (result.standing.min(axis=1) == 1).all()


def test_each_race_adds_one_upgrade_and_the_cars_keep_their_upgrades():
    races, bots, seats, result, _ = _seasons("season_1963")
    pool = races[0].cards.pool.copy()
    pool[races[0].heat_card] = 0  # (the pool's Heat cards: these bots take none)
    for r, st in enumerate(result.races):
        owned = (st.deck + st.hand + st.play + st.discard)[..., pool > 0]
        players = ~st.is_legend
        assert (owned.sum(axis=2)[players] == r + 1).all(), r
        assert (owned.sum(axis=1) <= pool[pool > 0]).all(), "no upgrade beyond the pool's copies"


def test_the_next_grid_is_the_standings_the_leader_on_pole():
    _, _, _, result, _ = _seasons("season_1961")
    total = np.zeros_like(result.total)
    for r in range(len(result.races) - 1):
        total += result.points[r]
        rank = championship.standings_rank(total, result.points[r], result.slot[r])
        assert (result.slot[r + 1] == rank - 1).all(), r


def test_standings_ties_go_to_the_last_races_points_then_the_last_grid():
    total = np.array([[10, 10, 10, 4]])
    last = np.array([[4, 6, 6, 0]])
    slot = np.array([[0, 3, 1, 2]])
    assert championship.standings_rank(total, last, slot).tolist() == [[3, 2, 1, 4]]


def test_unplayed_sponsorship_cards_are_carried_to_the_next_race():
    races, _, _, result, _ = _seasons("season_1963")
    sponsor = races[0].cards.sponsors > 0
    for r in range(1, len(result.races)):
        before, now = result.races[r - 1], result.races[r]
        held_before = (before.deck + before.hand + before.play + before.discard)[..., sponsor].sum(axis=2)
        carried = now.received[..., sponsor].sum(axis=2)  # the race's dealt, gained and played come on top
        dealt = races[r].event.sponsors * (~now.is_legend)
        played = now.played[..., sponsor].sum(axis=2)
        held_now = (now.deck + now.hand + now.play + now.discard)[..., sponsor].sum(axis=2)
        assert (held_now == held_before[np.arange(64)[:, None], _slots_before(result, r)] + dealt
                + now.sponsors_gained - played).all()  # fmt: skip
        assert (carried == held_now).all()


def _slots_before(result, r):
    """(G, P) for each grid slot of race r, the slot its car had in race r - 1."""
    car_at = np.argsort(result.slot[r], axis=1)
    return result.slot[r - 1][np.arange(car_at.shape[0])[:, None], car_at]


def test_a_season_is_a_function_of_its_seed_and_id_whatever_the_batch():
    _, _, _, whole, _ = _seasons("season_1964", games=12, expansions=["heavy_rain"])
    _, _, _, part, _ = _seasons("season_1964", games=4, first=8, expansions=["heavy_rain"])
    assert (whole.points[:, 8:] == part.points).all() and (whole.slot[:, 8:] == part.slot).all()


def test_a_season_unknown_to_the_database_is_a_one_line_error():
    with pytest.raises(UserError, match=r"rules\.season: unknown season 'season_1999'.*known: season_1961"):
        heat.tables(season="season_1999")


def test_a_fixed_road_conditions_list_must_suit_every_race_of_the_season():
    with pytest.raises(UserError, match=r"seasons\.season_1961\.races\.0\.track: rules\.road_conditions lists 4"):
        heat.season_race("season_1961", 0, road_conditions=["slow_corner"] * 4)  # Great Britain: 5 corners


def test_a_drafted_heat_card_is_the_cars_for_the_rest_of_the_season():
    """The Championship drafts from the single races' Garage pool, BGA's Heat cards in it (two of each tier);
    a Heat card drafted is the car's as an upgrade is: BGA puts it in the deck (RaceTrait.php stFinishDraft)
    and clears only the race's Heat (Cards.php clean), so it comes to every later race on top of the race's."""
    races = tuple(heat.season_race("season_1961", r, weather=True) for r in range(3))
    assert all(t.cards.pool[t.heat_card] == 4 for t in races)
    names = ["hoarder", "balanced", "aggressive", "cautious"]
    bots = bot_table(resolve_profiles(HOARDER), names, races[0])
    seats = ((np.arange(4)[None, :] + np.arange(64)[:, None]) % 4).astype(np.int16)
    broken: list[str] = []
    season = _season("season_1961")
    result = championship.play_season(
        season,
        dict(zip(season.races, races, strict=True)),
        (9, 6, 4, 3, 2, 1),
        bots,
        seats,
        Streams(5, 0, 64),
        broken=broken,
    )
    assert broken == []
    h, games = races[0].heat_card, np.arange(64)[:, None]
    drafted = np.stack([st.drafted[games, result.slot[r], h] for r, st in enumerate(result.races)])  # (R, G, car)
    hoarder = seats == 0  # (G, car): the hoarder's car (the hoarder never swaps: it values every card alike)
    assert drafted[:, hoarder].sum() > 0 and drafted[:, ~hoarder].sum() == 0
    for r in (1, 2):
        carried = result.races[r].received[games, result.slot[r], h]  # (no Event takes Heat out in 1961)
        assert (carried == drafted[:r].sum(axis=0)).all(), r
        race_heat = races[r].tracks[races[r].rules.track].heat + result.races[r].weather_heat[:, None]
        st = result.races[r]
        whole = st.engine + (st.deck + st.hand + st.play + st.discard)[..., h]
        assert (whole[games, result.slot[r]] == race_heat + drafted[: r + 1].sum(axis=0))[hoarder].all()


def test_a_swap_gives_away_a_drafted_heat_card_never_the_races_own():
    """The first picker may swap an upgrade it owns (BGA's argsSwapUpgrade: the cards it drafted, a Heat card
    of the pool among them): never a Heat card the Weather put into its deck (Rain: 3 of the Engine's)."""
    races, _, _, result, broken = _seasons("season_1961", games=128)
    assert broken == [] and any((st.weather_heat != 0).any() for st in result.races)
    h = races[0].heat_card
    for st in result.races:
        assert (st.received[..., h] >= 0).all() and (st.drafted[..., h] == 0).all()


def test_the_logs_drafts_are_the_upgrades_each_car_drafted_a_swap_included():
    """The first picker's swap: an upgrade drafted just now is as if never drafted (its draft event names the
    one taken), one carried from a race before leaves; the cards log's draft events match the state's."""
    events = Events()
    races, _, _, result, _ = _seasons("season_1965", games=96, events=events, expansions=["tunnel_vision"])
    ev = events.arrays()
    drafts = ev["event"] == 1
    K = len(races[0].cards.ids)
    logged = np.zeros((96, 4, K), np.int64)
    np.add.at(logged, (ev["game"][drafts], ev["seat"][drafts], ev["card"][drafts]), 1)
    drafted = sum(st.drafted[np.arange(96)[:, None], result.slot[r]] for r, st in enumerate(result.races))
    assert (logged == drafted).all()
    swapped = drafted.sum(axis=2) > len(races)  # a carried upgrade given away: one more drafted
    assert swapped.any(), "some car swapped a carried upgrade in these seasons"


def test_strengths_extra_sponsorship_card_is_in_every_race_and_leaves_the_game_when_played():
    """balance strength's Sponsorship item: car 0 starts each race with an extra Lord & Co. T.B.; played, that
    copy is gone (the sponsor pile keeps its 35, the rules checker after every turn says so)."""
    races, bots, seats, result, broken = _seasons("season_1963", bonus="lord_turbo")
    lord, rows = races[0].cards.index("lord_turbo"), np.arange(64)
    car = np.argmax(~bots.legend[seats], axis=1)  # the first player car of each season
    assert broken == []
    for r, st in enumerate(result.races):
        slot = result.slot[r][rows, car]
        played = st.played[rows, slot, lord]
        assert (st.bonus[rows, slot, lord] == (played == 0)).all(), f"race {r}: the first copy played is the extra"
        held = (st.deck + st.hand + st.play + st.discard)[..., lord].sum(axis=1)
        assert (held + st.sponsors[:, lord] == 7 + st.bonus[:, :, lord].sum(axis=1)).all(), r
    assert (result.races[-1].played[rows, result.slot[-1][rows, car], lord] > 0).any()


def test_a_bot_values_a_press_at_what_a_sponsorship_card_adds_over_a_basic_card():
    """The pile's mean expected speed (Dramdo 4, Fredo 4, Aperault 1, Lord 6, De Angeli 3: 3.6) less a basic
    card's (2.5): 1.1 spaces a card; twice under Going global; nothing where a spin-out ends the race."""
    assert compiled_tables.press_worth(TITLE_SPONSOR) == pytest.approx(1.1)
    bots = bot_table(resolve_profiles(ROBOT), ["robot", "robot"], TITLE_SPONSOR)
    assert compiled_tables.build(TITLE_SPONSOR, bots, 2).press_worth == pytest.approx(1.1)
    withdraws = heat.season_race("season_1963", 3)
    assert compiled_tables.build(withdraws, bots, 2).press_worth == 0.0
    T = compiled_tables.build(TITLE_SPONSOR, bots, 2)
    lines = (T.corner_at, T.limit, T.press, T.finish)
    assert [rules.presses(*lines, 2, 2 + v, v, 2, False, 2 + v) for v in (8, 9, 10)] == [0, 1, 1], "A: 7, at 11"
    assert rules.presses(*lines, 4, 10, 6, 2, False, 10) == 0, "short of the line"
    assert rules.presses(*lines, 5, 11, 6, 2, True, 11) == 1, "below the limit, where the Event asks"
    assert rules.presses(*lines, 5, 11, 4, 2, False, 9) == 1, "over the line in the slipstream (from 9), at speed 4"
    assert rules.presses(*lines, 5, 11, 8, 2, True, 9) == 0, "below the limit only, the slipstream's too"


# --- a season drawn at random (BGA's Random championship) -------------------------------------------------


def _drawn_db(draw: dict | None = None, **rules):
    """heat.yaml racing a drawn season: the shipped season_random, or one with this `draw:`."""
    data = heat.yaml.safe_load(heat.yaml.safe_dump(heat._BASE))
    if draw is not None:
        data["seasons"].append({"id": "season_drawn", "name": "Drawn", "draw": draw})
    data["rules"].update(rules, season="season_drawn" if draw is not None else "season_random")
    return heat.validate_database(heat.parse_yaml(heat.yaml.safe_dump(data, sort_keys=False), "t.yaml"))


def _draws(db, games: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(G, R) each drawn season's tracks and Event cards, as ids."""
    season = championship.season_of(db)
    drawn = championship.drawn_races(season, lambda race: heat_schema.race_fits(db, race), Streams(3, first, games))
    races = season.candidates()
    tracks = np.array([[races[k].track for k in r] for r in drawn]).T
    events = np.array([[races[k].event for k in r] for r in drawn]).T
    return tracks, events


def test_a_random_season_races_every_track_once_in_a_random_order_each_with_an_event_of_its_own():
    db = _drawn_db()
    tracks, events = _draws(db, 4000)
    base = {"usa", "great_britain", "italia", "france"}
    assert all(set(row) == base for row in tracks), "four races of four tracks: each once"
    assert all(len(set(row)) == 4 for row in events) and set(events.ravel()) <= set(
        db.season("season_random").draw.events
    )
    # uniform: each track opens a quarter of the seasons, each of the ten Events a tenth (within 4 sd)
    for column, n in ((tracks[:, 0], 4), (events[:, 0], 10)):
        _, counts = np.unique(column, return_counts=True)
        assert len(counts) == n and np.abs(counts - 4000 / n).max() < 4 * np.sqrt(4000 / n)


def test_a_random_season_never_pairs_an_event_with_a_track_it_leaves_no_race():
    """BGA draws a whole Random championship again when Espana (1 lap) gets the Drivers' strike (-1 lap)."""
    draw = {"races": 2, "tracks": ["espana", "usa"], "events": ["drivers_strike", "new_title_sponsor"]}
    tracks, events = _draws(_drawn_db(draw, expansions=["tunnel_vision"]), 400)
    on_espana = events[tracks == "espana"]
    assert (on_espana == "new_title_sponsor").all() and (events[tracks == "usa"] == "drivers_strike").all()
    assert len(on_espana) == 400


def test_a_drawn_season_is_a_function_of_its_seed_and_id_whatever_the_batch():
    db = _drawn_db()
    whole, part = _draws(db, 12), _draws(db, 4, first=8)
    assert (whole[0][8:] == part[0]).all() and (whole[1][8:] == part[1]).all()
    races = {race: heat.compile_race(db, race) for race in db.season("season_random").candidates()}
    bots = bot_table(
        resolve_profiles(None), ["balanced", "aggressive", "cautious", "legend"], next(iter(races.values()))
    )
    played_ = []
    for first, games in ((0, 12), (8, 4)):
        seats = ((np.arange(4)[None, :] + np.arange(first, first + games)[:, None]) % 4).astype(np.int16)
        played_.append(
            championship.play_season(
                db.season("season_random"), races, (9, 6, 4, 3, 2, 1), bots, seats, Streams(5, first, games)
            )
        )
    whole_season, part_season = played_
    assert (whole_season.points[:, 8:] == part_season.points).all()
    assert (whole_season.raced("track")[8:] == part_season.raced("track")).all()
    assert len({*whole_season.raced("track")}) > 1, "the seasons drew other orders"


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        (
            {"races": 5, "tracks": ["usa", "italia", "france", "great_britain"]},
            r"draw\.races: 5 races drawn from 4 tracks",
        ),
        ({"races": 2, "tracks": ["usa", "usa"]}, r"draw\.tracks\.1: usa is listed twice"),
        ({"races": 1, "tracks": ["monaco"]}, r"draw\.tracks\.0: unknown track 'monaco'"),
        (
            {"races": 1, "tracks": ["espana"], "events": ["drivers_strike"]},
            r"draw: 0\.0% of the draws of 1 race give every race",
        ),
    ],
)
def test_a_drawn_season_that_cannot_be_drawn_is_a_one_line_error(draw, message):
    with pytest.raises(UserError, match=r"seasons\.season_drawn\." + message):
        _drawn_db(draw, expansions=["tunnel_vision"])


def test_a_season_gives_its_races_or_a_draw():
    data = heat.yaml.safe_load(heat.yaml.safe_dump(heat._BASE))
    data["seasons"].append({"id": "season_both", "name": "Both", "races": [{"track": "usa", "event": "going_global"}],
                            "draw": {"races": 1, "tracks": ["usa"]}})  # fmt: skip
    with pytest.raises(UserError, match=r"seasons\.season_both: give a season its races: or a draw:, one of the two"):
        heat.validate_database(heat.parse_yaml(heat.yaml.safe_dump(data, sort_keys=False), "t.yaml"))


def test_a_draw_that_seldom_runs_is_refused_before_any_game():
    """Six tracks of 1 to 6 laps, six Events of 0 to -5 laps: one pairing of 720 runs. It passed `balance
    validate` and then failed in a worker after its draws ran out (the audit of the drawn season)."""
    data = heat.yaml.safe_load(heat.yaml.safe_dump(heat._BASE))
    tracks = [t for t in data["tracks"] if t["id"] in ("usa", "italia", "france", "great_britain")]
    stairs = []
    for k in range(6):
        track = dict(tracks[k % 4], id=f"stairs_{k}", laps=k + 1)
        stairs.append(track)
    data["tracks"] += stairs
    data["events"] += [
        {"id": f"cut_{k}", "name": f"Cut {k}", "sponsors": 1, "press": ["A"], "laps": -k} for k in range(6)
    ]
    draw = {"races": 6, "tracks": [t["id"] for t in stairs], "events": [f"cut_{k}" for k in range(6)]}
    data["seasons"].append({"id": "season_drawn", "name": "Stairs", "draw": draw})
    data["rules"]["season"] = "season_drawn"
    with pytest.raises(UserError, match=r"seasons\.season_drawn\.draw: 0\.\d% of the draws of 6 races give every race"):
        heat.validate_database(heat.parse_yaml(heat.yaml.safe_dump(data, sort_keys=False), "t.yaml"))


def test_the_season_raced_without_races_or_a_draw_is_a_one_line_error():
    """It was a traceback when rules.season named it (the sponsor pile's check read its races)."""
    data = heat.yaml.safe_load(heat.yaml.safe_dump(heat._BASE))
    data["seasons"].append({"id": "season_empty", "name": "Empty"})
    data["rules"]["season"] = "season_empty"
    with pytest.raises(UserError, match=r"seasons\.season_empty: give a season its races: or a draw:"):
        heat.validate_database(heat.parse_yaml(heat.yaml.safe_dump(data, sort_keys=False), "t.yaml"))


def test_a_drawn_seasons_log_names_its_events_and_a_broken_rule_its_season_and_race(monkeypatch):
    """The games log says which Event each race had (as `track` its tracks), points stay int16, and the rules
    checker names a finding by the batch's season and the race, not by a row of the race's group."""
    from balance.games import compiled_engine

    db = _drawn_db()
    season = db.season("season_random")
    races = {race: heat.compile_race(db, race) for race in season.candidates()}
    bots = bot_table(
        resolve_profiles(None), ["balanced", "aggressive", "cautious", "legend"], next(iter(races.values()))
    )
    seats = ((np.arange(4)[None, :] + np.arange(40)[:, None]) % 4).astype(np.int16)
    events = Events()
    result = championship.play_season(season, races, (9, 6, 4, 3, 2, 1), bots, seats, Streams(5, 0, 40), events)
    tables = championship.season_tables(result, events, seats, bots, 0, 0)
    logged = tables["games"].column("events").to_pylist()
    for g in (0, 17, 39):
        assert logged[g] == " / ".join(next(x.race.event for x in r if g in x.rows) for r in result.groups)
    assert tables["players"].schema.field("race1_points").type == "int16"

    tell = compiled_engine.Checker.tell

    def broken_in_the_first_row(self, rules, where):
        self.finding[1:] = (1, 0, 7, 2)  # rule 1 broken in the group's first row, round 7, after car 2's turn
        tell(self, rules, where)

    monkeypatch.setattr(compiled_engine.Checker, "tell", broken_in_the_first_row)
    broken: list[str] = []
    result = championship.play_season(season, races, (9, 6, 4, 3, 2, 1), bots, seats, Streams(5, 0, 40), broken=broken)
    later = next(g for g in result.groups[1] if g.rows[0] > 0)  # a group whose first row is not the batch's
    assert f"(season {later.rows[0]} of the batch, race 2, round 7, after car 2's turn)" in " ".join(broken)
