"""What the compiled Heat engine reads besides the state: the database's
compiled tables, the course laid over the whole race (course.py), the bots'
profiles and the card figures the bots read (each card's expected speed, a
flip's), as one named tuple of numbers and arrays (`Tab`). No Python object
reaches the per-game code.

Built once per (tables, bots, players) in a process and kept.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...profiles import noise_span
from .. import vocabulary as V
from ..bots import BotTable, expected_flip, expected_speed
from ..compile import SECTOR_COLUMNS, Tables
from ..course import course

SPIN_COST = 6.0  # spaces a spin-out costs a bot's plan besides stopping short: Stress in hand, gear 1
OUT_COST = 1_000.0  # a spin-out that puts the car out of the race (an Event): worse than any plan that avoids it
OUT_RESERVE = 3  # and the Heat a bot then keeps back beyond its own reserve, against a spin-out it cannot avoid

# the draws the engine makes, one count each (chance.compiled.key), named as the numpy engine named them
PURPOSES = (
    "garage market",
    "noise: draft pick",
    "draw: opening hand",
    "legend card",
    "noise: card choice",
    "noise: gear choice",
    "flip: played cards",
    "flip: boost",
    "noise: adrenaline",
    "noise: boost",
    "noise: slipstream",
    "scrap",
    "draw: replenish",
    "weather",
    "road conditions",
    "sponsors",  # the Championship's Sponsorship cards: dealt and gained (appended: the other codes stay)
    "noise: direct play",  # the random bot's coins for Direct Play and Accelerate (appended too)
    "noise: accelerate",
)

# the ops the React step and the refill look for only where some card has them (the hot path)
REACT_OPS = ("super_cool", "draft", "salvage", "refresh", "direct_play", "accelerate")

Tab = namedtuple(
    "Tab",
    [
        # rules
        "players",
        "heat_card",
        "stress_card",
        "garage",
        "hand_size",
        "gears",
        "starting_gear",
        "spin_out_gear",
        "shift_two_heat",
        "cooldown",
        "boost_heat",
        "boost_allowed",
        "adrenaline_cars",
        "adrenaline_speed",
        "adrenaline_cooldown",
        "adrenaline_both",
        "slipstream",
        "spin_out_stress",
        "max_rounds",
        "aggressive_legends",
        "stress_supply",
        "spin_out_pays_engine",
        "draft_seats",
        "revealed_extra",
        "lanes",
        "grid_space",
        "grid_lane",
        # cards
        "speed",
        "choices",
        "flips",
        "flips_f32",
        "is_basic",
        "playable",
        "is_choice",
        "value",
        "heat_cost",
        "op_cooldown",
        "op_slipstream",
        "op_corner",
        "op_scrap",
        "op_discard_stress",
        "op_super_cool",
        "op_draft",
        "card_effects",
        "direct_cards",
        "starting_deck",
        "pool",
        "top",
        "flip_mean",
        "spread",
        # the course
        "finish",
        "spaces",
        "laps",
        "lap_corners",
        "corners",
        "corner_at",
        "limit",
        "legend_at",
        "track_heat",
        "legend_helmet",
        "legend_diamond",
        "pro_legends",
        "chevron",
        "flooded",
        "tunnel",
        "chicane",
        "flooded_heat",
        "any_flooded",
        "any_tunnel",
        "any_react_ops",
        "no_overheat",
        # Weather and Road Conditions
        "weather_module",
        "weather_fixed",
        "road_fixed",
        "w_stress",
        "w_heat",
        "w_to_deck",
        "w_to_discard",
        "w_sector",
        "r_count",
        "r_limit",
        "r_overheat",
        "r_is_sector",
        "r_sector",
        # the Championship (a season's race: tables.event; all off otherwise)
        "championship",
        "sponsor_pile",
        "is_sponsor",
        "deal",
        "press",
        "press_margin",
        "press_cards",
        "press_below",
        "record_speed",
        "first_to_lap",
        "pass_cars",
        "eliminate",
        "slip_gear",
        "discard_heat",
        "discard_stress",
        "discards_max",
        "heat_out_per_lap",
        "swap",
        "spin_cost",
        "out_reserve",
        "press_worth",
        # bots
        "legend",
        "noise",
        "noise_span",
        "risk",
        "reserve",
        "heat_value",
        "boost",
        "cooldown_value",
        "discard_below",
        "upgrade_value",
    ],
)


def draft_order(players: int, rounds: int, order: str) -> list[list[int]]:
    """The pick order of each draft round over grid slots: the back of the grid
    picks first (the pole is already an advantage); snake reverses every round."""
    forward = list(range(players - 1, -1, -1))
    return [forward[::-1] if order == "snake" and r % 2 else forward for r in range(rounds)]


def championship(tables: Tables, lines: int) -> dict[str, object]:
    """The Championship's fields of Tab: the sponsor pile, the race's Press Corners over every lap's lines,
    the press rule (rules.championship) and the Event card's rules; a race on its own has them all off."""
    e, c, r = tables.event, tables.cards, tables.rules
    gears = r.gears
    press = np.zeros(lines + 1, np.bool_)
    laps_corners = len(tables.tracks[r.track].limit)
    for corner in tables.press:
        press[corner:lines:laps_corners] = True
    slip_gear = np.ones(gears + 1, np.bool_)
    if e is not None and e.slipstream_gears:
        slip_gear[:] = False
        slip_gear[list(e.slipstream_gears)] = True
    on = e is not None
    return {
        "championship": on,
        "sponsor_pile": _i64(c.sponsors),
        "is_sponsor": np.ascontiguousarray(c.type == V.CARD_TYPES.index("sponsor")),
        "deal": int(e.sponsors) if on else 0,
        "press": press,
        "press_margin": int(tables.press_margin),
        "press_cards": int(e.press_cards) if on else 1,
        "press_below": bool(on and e.press_below_limit),
        "record_speed": int(e.record_speed) if on else 0,
        "first_to_lap": int(e.first_to_lap) if on else 0,
        "pass_cars": int(e.pass_cars) if on else 0,
        "eliminate": bool(on and e.spin_out_eliminates),
        "slip_gear": slip_gear,
        "discard_heat": bool(on and e.discard_heat),
        "discard_stress": bool(on and e.discard_stress),
        "discards_max": int(e.discards_max) if on and e.discards_max is not None else -1,
        "heat_out_per_lap": int(e.heat_out_per_lap) if on else 0,
        "swap": bool(on and tables.swap),
        "spin_cost": OUT_COST if on and e.spin_out_eliminates else SPIN_COST,
        "out_reserve": OUT_RESERVE if on and e.spin_out_eliminates else 0,
        # (none where a spin-out ends the race: the Heat a press costs is then worth more than a card)
        "press_worth": press_worth(tables) if on and not e.spin_out_eliminates else 0.0,
    }


def press_worth(tables: Tables) -> float:
    """What a press is worth to a bot's plan, in spaces: the Sponsorship cards it gains (an Event's
    press_cards), each worth its expected speed over a basic speed card's (the card it displaces in hand),
    over the pile's mix; never below 0."""
    c, e = tables.cards, tables.event
    pile = c.sponsors.astype(np.float64)
    if pile.sum() == 0:
        return 0.0
    value = expected_speed(tables).astype(np.float64)
    over = float((value * pile).sum() / pile.sum()) - expected_flip(tables)
    return max(over, 0.0) * e.press_cards


def _i64(a) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a, dtype=np.int64))


def build(tables: Tables, bots: BotTable, players: int, bonus_card: int = -1) -> Tab:
    """The tables of a race; `bonus_card`: a card a strength experiment adds to one deck (counted among the
    cards that may be in the race)."""
    r, c = tables.rules, tables.cards
    track = tables.tracks[r.track]
    co = course(track)
    flip_mean = expected_flip(tables)
    top = int(c.speed[c.is_basic].max(initial=0))
    choice = (c.choices >= 0).any(axis=1)
    op = lambda name: _i64(c.op(name))  # noqa: E731
    seats = np.array(draft_order(players, r.upgrades_each, V.DRAFT_ORDERS[r.draft_order]), np.int64)
    w, road, e = tables.weather, tables.road, tables.event
    # the cards that may be in the race: the decks', the Garage pool's, the sponsor pile's, a strength bonus
    in_race = _i64(tables.starting_deck(r.track, garage=r.garage_module)) > 0
    if r.garage_module:
        in_race |= _i64(c.pool) > 0
    if e is not None:
        in_race |= np.asarray(c.type == V.CARD_TYPES.index("sponsor"))
    if bonus_card >= 0:
        in_race[bonus_card] = True
    reacts = lambda name: (_i64(c.op(name)) != 0) & in_race  # noqa: E731
    return Tab(
        players=players,
        heat_card=int(tables.heat_card),
        stress_card=int(tables.stress_card),
        garage=bool(r.garage_module),
        hand_size=int(r.hand_size),
        gears=int(r.gears),
        starting_gear=int(r.starting_gear),
        spin_out_gear=int(r.spin_out_gear),
        shift_two_heat=int(r.shift_two_heat),
        cooldown=_i64(r.cooldown),
        boost_heat=int(r.boost_heat),
        boost_allowed=np.ascontiguousarray(r.boost_allowed, dtype=np.bool_),
        adrenaline_cars=int(r.adrenaline_cars[players]) if e is None or e.adrenaline else 0,  # of the cars started
        adrenaline_speed=int(r.adrenaline_speed),
        adrenaline_cooldown=int(r.adrenaline_cooldown),
        adrenaline_both=V.ADRENALINE_MODES[r.adrenaline_mode] == "both",
        slipstream=int(r.slipstream),
        spin_out_stress=_i64(r.spin_out_stress),
        max_rounds=int(r.max_rounds),
        aggressive_legends=bool(r.aggressive_legends),
        stress_supply=int(r.stress_supply),
        spin_out_pays_engine=bool(r.spin_out_pays_engine),
        draft_seats=seats.reshape(r.upgrades_each, players),
        revealed_extra=int(r.revealed_extra),
        lanes=int(r.lanes),
        grid_space=_i64(r.grid_space[:players]),
        grid_lane=_i64(r.grid_lane[:players]),
        speed=_i64(c.speed),
        choices=_i64(c.choices),
        flips=_i64(c.flips),
        flips_f32=np.ascontiguousarray(c.flips, dtype=np.float32),
        is_basic=np.ascontiguousarray(c.is_basic, dtype=np.bool_),
        playable=np.ascontiguousarray(c.type != V.CARD_TYPES.index("heat")),
        is_choice=np.ascontiguousarray(choice),
        value=np.ascontiguousarray(expected_speed(tables), dtype=np.float32),
        heat_cost=op("heat"),
        op_cooldown=op("cooldown"),
        op_slipstream=op("slipstream"),
        op_corner=op("corner_limit"),
        op_scrap=op("scrap"),
        op_discard_stress=op("discard_stress"),
        op_super_cool=op("super_cool"),
        op_draft=op("draft"),
        card_effects=np.ascontiguousarray(
            np.stack(
                [_i64(c.flips)]
                + [
                    op(n)
                    for n in (
                        "cooldown",
                        "slipstream",
                        "corner_limit",
                        "scrap",
                        "discard_stress",
                        "super_cool",
                        "draft",
                        "salvage",
                        "refresh",
                        "direct_play",
                        "accelerate",
                    )
                ],
                axis=1,
            )
        ),
        direct_cards=_i64(np.flatnonzero(reacts("direct_play"))),
        starting_deck=_i64(tables.starting_deck(r.track, garage=r.garage_module)),
        pool=_i64(c.pool),
        top=top,
        flip_mean=float(flip_mean),
        spread=float(np.int8(top) - flip_mean),  # an int8 less a Python float, in float64 (as numpy did)
        finish=int(co.finish),
        spaces=int(track.spaces),
        laps=int(track.laps),
        lap_corners=len(track.limit),
        corners=int(co.corners),
        corner_at=_i64(co.corner_at),
        limit=_i64(co.limit),
        legend_at=_i64(co.legend_at),
        track_heat=int(track.heat),
        legend_helmet=_i64(tables.legends.helmet),
        legend_diamond=_i64(tables.legends.diamond),
        pro_legends=int(r.pro_legends),
        chevron=_i64(track.chevron),
        flooded=np.ascontiguousarray(track.flooded, dtype=np.bool_),
        tunnel=np.ascontiguousarray(track.tunnel, dtype=np.bool_),
        chicane=np.ascontiguousarray(track.chicane, dtype=np.bool_),
        flooded_heat=int(r.flooded_heat),
        # what the turn need not look at where nothing uses it (the hot path: scripts/bench_heat.py)
        any_flooded=bool(track.flooded.any()),
        any_tunnel=bool(track.tunnel.any()),
        any_react_ops=bool(any(reacts(o).any() for o in REACT_OPS)),
        no_overheat=np.zeros(int(co.corners) + 1, np.int64),
        weather_module=bool(r.weather_module),
        weather_fixed=int(r.weather),
        road_fixed=_i64(r.road),
        w_stress=_i64(w.stress),
        w_heat=_i64(w.heat),
        w_to_deck=_i64(w.heat_to_deck),
        w_to_discard=_i64(w.heat_to_discard),
        w_sector=_i64(w.sector).reshape(len(w.ids), len(SECTOR_COLUMNS)),
        r_count=_i64(road.count),
        r_limit=_i64(road.limit),
        r_overheat=_i64(road.overheat),
        r_is_sector=np.ascontiguousarray(road.is_sector, dtype=np.bool_),
        r_sector=_i64(road.sector).reshape(len(road.ids), len(SECTOR_COLUMNS)),
        **championship(tables, co.corners),
        legend=np.ascontiguousarray(bots.legend, dtype=np.bool_),
        noise=np.ascontiguousarray(bots.noise, dtype=np.float32),
        noise_span=np.ascontiguousarray(noise_span(bots.noise), dtype=np.float32),
        risk=np.ascontiguousarray(bots.risk, dtype=np.float32),
        reserve=_i64(bots.reserve),
        heat_value=np.ascontiguousarray(bots.heat_value, dtype=np.float32),
        boost=np.ascontiguousarray(bots.boost, dtype=np.float32),
        cooldown_value=np.ascontiguousarray(bots.cooldown, dtype=np.float32),
        discard_below=np.ascontiguousarray(bots.discard_below, dtype=np.float32),
        upgrade_value=np.ascontiguousarray(bots.upgrade_value, dtype=np.float32),
    )
