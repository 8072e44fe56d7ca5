"""What the compiled Horsepower engine reads besides the state: the database's
compiled tables, the bots' tables and the lookups of `context.py`, laid out
as one named tuple of numbers and arrays (numba reads a named tuple's fields
as typed values; no Python object reaches the per-game code).

Built once per (tables, bots, players) in a process and kept: the runner's
workers play many chunks of one scenario.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import vocabulary as V
from ..bots import FEATURES, SITUATIONS, VARIANTS, BotTable
from ..compile import NONE, Tables
from ..context import MOD_COLUMNS, build_card_values, build_lookups
from ..draft import snake_order
from ..effects import slow_modifier_rows
from ..limits import EXTRA_PLAY_ROUNDS, SHOP_STEPS

# The names the compiled code uses for the vocabulary's codes (checked against it below).
OPS = tuple(V.OPS)
TARGETS = V.TARGETS
TRIGGERS = V.TRIGGERS
PER = V.PER_COUNTERS
AIM_KINDS = ("any", "not_wiped", "supply", "can_go_back", "has_coins", "off_my_path")
# the draws the engine makes, one count each (chance.compiled.key), named as the numpy engine named them
PURPOSES = (
    "draft pool: parts",
    "draft pool: playbooks",
    "first drafter",
    "noise: draft cards",
    "noise: draft playbooks",
    "draw: card effect",
    "reveal a part",
    "noise: card values",
    "noise: refresh",
    "dice",
    "reroll",
    "draw: new hand",
    "pit stop playbooks",
    "noise: pit stop",
    "noise: pit or race through",
    "noise: auction",
)
# the modifier totals a phase asks for (the `ops` it reads), each with its own slow rows
MODIFIER_ASKS = (
    ("always", ("discount", "free_refresh")),
    ("always", ("drive", "dice", "reroll")),
    ("always", ("hand_size",)),
    ("always", ("extra_play",)),
    ("turn_start", None),
)

Tab = namedtuple(
    "Tab",
    [
        # rules
        "players",
        "track_length",
        "laps",
        "space_kind",
        "starting_coins",
        "seat_coins",
        "draft_coins",
        "hand_size",
        "purchase_cost",
        "refresh_cost",
        "showroom_size",
        "draft_parts",
        "draft_playbooks",
        "parts_drafted",
        "playbooks_drafted",
        "starting_deck",
        "type_limits",
        "debris_card",
        "debris_per_lap",
        "die_sides",
        "dice_per_drive",
        "min_drive",
        "pit_stop_draw",
        "pit_stop_keep",
        "max_rounds",
        "banana_next_free",
        "first_drafter_random",
        "wiped_next_turn",
        "parts_deck",
        "supply",
        "playbook_count",
        "snake",
        # cards and effects
        "cost",
        "card_count",
        "effect_owner",
        "effect_is_playbook",
        "effect_value",
        "effect_per",
        "if_played",
        "if_leading",
        "if_last",
        "if_laps",
        "if_min_coins",
        "if_min_puzzle",
        "if_behind_leader",
        # lookups (context.Lookups)
        "instant_rows",
        "instant_step",
        "group_of",
        "group_op",
        "group_target",
        "group_zone",
        "card_fires",
        "card_fires_any",
        "trigger_fires",
        "card_rows",
        "card_row_count",
        "trigger_books",
        "trigger_book_count",
        "book_rows",
        "book_row_count",
        "modifier_rows",
        "modifier_column",
        "modifier_owner",
        "modifier_is_playbook",
        "slow_rows",
        "slow_count",
        "card_mod",
        "playbook_mod_always",
        "playbook_mod_turn_start",
        "turn_start_books",
        "conditional_extra_play",
        "scrap_this",
        "is_expires",
        "is_puzzle",
        "type_bit",
        "cards_of_type",
        "type_count",
        "moves",
        "moving",
        # bots
        "noise",
        "weight_drive",
        "buy_min",
        "refreshes",
        "bid",
        "scrap_below",
        "pit_rule",
        "pit_laps_left",
        "playbook_value",
        "aim_target",
        "aim_kind",
        "aim_distance",
        "card_aimed",
        "aimed_cards",
        "behind_gap",
        "rich_at",
        "roll_at_least",
        "mean_roll",
        "situational",
        "own_value",
        "acquire_value",
        "per_profile",
        # engine limits
        "shop_steps",
        "extra_play_rounds",
    ],
)


def _ints(a, dtype=np.int64) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a), dtype=dtype)


def build(tables: Tables, bots: BotTable, players: int) -> Tab:
    """The compiled engine's tables for games of `players` seats."""
    look = build_lookups(tables)
    values = build_card_values(bots, tables.rules.laps)
    rules, e = tables.rules, tables.effects
    P = players
    K, B = len(tables.cards.ids), len(tables.playbooks.ids)
    parts = tables.parts_deck(P)
    # the slow modifier rows of each ask (effects.slow_modifier_rows), padded into one table
    asks = [slow_modifier_rows(look, when, ops) for when, ops in MODIFIER_ASKS]
    slow_rows = np.full((len(asks), max([len(a) for a in asks] + [1])), -1, np.int64)
    for i, a in enumerate(asks):
        slow_rows[i, : len(a)] = a
    types = len(V.PLAYABLE_TYPES)
    cards_of_type = np.full((types, max(K, 1)), -1, np.int64)
    type_count = np.zeros(types, np.int64)
    for t in range(types):
        cols = look.cards_of_type[t]
        cards_of_type[t, : len(cols)] = cols
        type_count[t] = len(cols)
    groups = look.groups
    # the few instant rows each card fires, and each Playbook on each trigger: loops read those alone
    width = max(
        1, int(look.card_fires.sum(axis=1).max(initial=0)), int((look.trigger_fires != 0).sum(axis=2).max(initial=0))
    )
    card_rows = np.full((K + 1, width), -1, np.int64)
    card_row_count = np.zeros(K + 1, np.int64)
    for k in range(K + 1):
        cols = np.flatnonzero(look.card_fires[k])
        card_rows[k, : len(cols)], card_row_count[k] = cols, len(cols)
    n_triggers = len(V.TRIGGERS)
    trigger_books = np.full((n_triggers, max(B, 1)), -1, np.int64)
    trigger_book_count = np.zeros(n_triggers, np.int64)
    book_rows = np.full((n_triggers, max(B, 1), width), -1, np.int64)
    book_row_count = np.zeros((n_triggers, max(B, 1)), np.int64)
    for t in range(n_triggers):
        books = look.trigger_playbooks[t]
        trigger_books[t, : len(books)], trigger_book_count[t] = books, len(books)
        for b in range(B):
            cols = np.flatnonzero(look.trigger_fires[t, b])
            book_rows[t, b, : len(cols)], book_row_count[t, b] = cols, len(cols)
    aims = bots.aims
    aim_kind = [AIM_KINDS.index(kind.split(":")[0]) for _, kind in aims]
    aim_distance = [int(kind.split(":")[1]) if kind.startswith("off_my_path:") else 0 for _, kind in aims]
    return Tab(
        players=P,
        track_length=rules.track_length,
        laps=rules.laps,
        space_kind=_ints(rules.space_kind),
        starting_coins=rules.starting_coins,
        seat_coins=_ints(rules.seat_coins),
        draft_coins=_ints(rules.draft_coins),
        hand_size=rules.hand_size,
        purchase_cost=rules.purchase_cost,
        refresh_cost=rules.refresh_cost,
        showroom_size=rules.showroom_size,
        draft_parts=rules.draft_parts[P],
        draft_playbooks=rules.draft_playbooks[P],
        parts_drafted=rules.parts_drafted,
        playbooks_drafted=rules.playbooks_drafted,
        starting_deck=_ints(rules.starting_deck),
        type_limits=_ints(rules.type_limits),
        debris_card=rules.debris_card,
        debris_per_lap=rules.debris_per_lap,
        die_sides=rules.die_sides,
        dice_per_drive=rules.dice_per_drive,
        min_drive=rules.min_drive,
        pit_stop_draw=rules.pit_stop_draw,
        pit_stop_keep=rules.pit_stop_keep,
        max_rounds=rules.max_rounds,
        banana_next_free=rules.banana_blocked == "next_free",
        first_drafter_random=rules.first_drafter == "random",
        wiped_next_turn=bool(rules.wiped_next_turn),
        parts_deck=_ints(parts),
        supply=_ints(tables.cards.count - parts - P * rules.starting_deck),
        playbook_count=_ints(tables.playbooks.count),
        snake=_ints(snake_order(P, rules.parts_drafted + rules.playbooks_drafted)),
        cost=_ints(tables.cards.cost),
        card_count=_ints(tables.cards.count),
        effect_owner=_ints(e.owner),
        effect_is_playbook=_ints(e.owner_is_playbook, np.bool_),
        effect_value=_ints(e.value),
        effect_per=_ints(e.per),
        if_played=_ints(e.if_played),
        if_leading=_ints(e.if_leading),
        if_last=_ints(e.if_last),
        if_laps=_ints(e.if_laps),
        if_min_coins=_ints(e.if_min_coins),
        if_min_puzzle=_ints(e.if_min_puzzle),
        if_behind_leader=_ints(e.if_behind_leader),
        instant_rows=_ints(look.instant_rows),
        instant_step=_ints(look.instant_step),
        group_of=_ints(look.group_of),
        group_op=_ints([OPS.index(g.op) for g in groups]),
        group_target=_ints([g.target for g in groups]),
        group_zone=_ints([g.scrap_from for g in groups]),
        card_fires=_ints(look.card_fires),
        card_fires_any=_ints(look.card_fires_any, np.bool_),
        trigger_fires=_ints(look.trigger_fires),
        card_rows=card_rows,
        card_row_count=card_row_count,
        trigger_books=trigger_books,
        trigger_book_count=trigger_book_count,
        book_rows=book_rows,
        book_row_count=book_row_count,
        modifier_rows=_ints(look.modifier_rows),
        modifier_column=_ints(look.modifier_column),
        modifier_owner=_ints(np.where(look.modifier_playbook >= 0, look.modifier_playbook, look.modifier_card)),
        modifier_is_playbook=_ints(look.modifier_playbook >= 0, np.bool_),
        slow_rows=slow_rows,
        slow_count=_ints([len(a) for a in asks]),
        # plain modifiers are whole numbers (effect values times copies): exact as integers
        card_mod=_ints(np.rint(look.card_mod)),
        playbook_mod_always=_ints(np.rint(look.playbook_mod["always"])),
        playbook_mod_turn_start=_ints(np.rint(look.playbook_mod["turn_start"])),
        turn_start_books=_ints(look.turn_start_modifiers),
        conditional_extra_play=bool(look.conditional_extra_play),
        scrap_this=_ints(look.scrap_this, np.bool_),
        is_expires=_ints(look.is_expires, np.bool_),
        is_puzzle=_ints(look.is_puzzle),
        type_bit=_ints(look.type_bit),
        cards_of_type=cards_of_type,
        type_count=type_count,
        moves=np.ascontiguousarray(look.moves, np.float32),
        moving=_ints(look.moves.any(axis=1), np.bool_),
        noise=np.ascontiguousarray(bots.noise, np.float32),
        weight_drive=np.ascontiguousarray(bots.weights[:, FEATURES.index("drive")], np.float32),
        buy_min=np.ascontiguousarray(bots.buy_min, np.float32),
        refreshes=_ints(bots.refreshes),
        bid=np.ascontiguousarray(bots.bid, np.float32),
        scrap_below=np.ascontiguousarray(bots.scrap_below, np.float32),
        pit_rule=_ints(bots.pit_stop),
        pit_laps_left=_ints(bots.pit_laps_left),
        playbook_value=np.ascontiguousarray(bots.playbook_value, np.float32).reshape(len(bots.noise), B),
        aim_target=_ints([t for t, _ in aims]),
        aim_kind=_ints(aim_kind),
        aim_distance=_ints(aim_distance),
        card_aimed=np.ascontiguousarray(bots.card_aimed, np.float32).reshape(
            len(bots.noise), VARIANTS, K, max(len(aims), 0)
        ),
        aimed_cards=_ints(bots.aimed_cards, np.bool_),
        behind_gap=_ints(bots.behind_gap),
        rich_at=_ints(bots.rich_at),
        roll_at_least=np.ascontiguousarray(bots.roll_at_least, np.float32),
        mean_roll=float(bots.mean_roll),
        situational=bool(bots.situational),
        own_value=np.ascontiguousarray(values.own, np.float32),
        acquire_value=np.ascontiguousarray(values.acquire, np.float32),
        per_profile=int(values.per_profile),
        shop_steps=SHOP_STEPS,
        extra_play_rounds=EXTRA_PLAY_ROUNDS,
    )


# The compiled code names codes by position; these must be the vocabulary's.
assert MOD_COLUMNS[:6] == ("drive", "dice_sum", "dice_best", "discount", "free_refresh", "hand_size")
assert SITUATIONS == ("level", "behind", "leading") and VARIANTS == 6
assert NONE == -1
