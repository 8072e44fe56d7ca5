"""Compile a validated database into read-only numpy tables, built once and
passed to the engine beside the state.

Cards are indexed 0..K-1 in file order, Playbooks 0..B-1. Every effect of
every card and Playbook is one row of `EffectTable`: an op code, one number
(`value`) and a few categorical codes, so the engine applies an op to a batch
of games by selecting rows, never by calling per-card code. A design variant
is simply another set of tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import vocabulary as V
from .limits import MAX_COPIES, MAX_PLAYERS
from .schema import Database, Effect

NONE = -1  # code for "not applicable" in categorical columns

SPACE_PLAIN, SPACE_AUCTION, SPACE_INCINERATOR = 0, 1, 2
GROUPS = ("parts", "starter", "debris")


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _code(words: tuple[str, ...], word: str | None) -> int:
    return NONE if word is None else words.index(word)


def flag_bit(flag: str) -> int:
    return 1 << list(V.FLAGS).index(flag)


@dataclass(frozen=True)
class RuleTable:
    track_length: int
    laps: int
    space_kind: np.ndarray  # (track_length + 1,) int8: SPACE_PLAIN / SPACE_AUCTION / SPACE_INCINERATOR
    starting_coins: int
    seat_coins: np.ndarray  # (MAX_PLAYERS,) int16: extra starting coins by seat (rules.seat_coins, 0 past it)
    draft_coins: np.ndarray  # (MAX_PLAYERS,) int16: extra starting coins by draft position (rules.draft_coins)
    hand_size: int
    purchase_cost: int
    refresh_cost: int
    showroom_size: int
    draft_parts: dict[int, int]  # players -> parts revealed for the draft
    draft_playbooks: dict[int, int]  # players -> Playbooks revealed for the draft
    parts_drafted: int
    playbooks_drafted: int
    starting_deck: np.ndarray  # (K,) int16: copies of each card in one player's starting cards
    type_limits: np.ndarray  # (5,) int8: plays per turn, by playable type code
    debris_card: int  # card index of Debris
    debris_per_lap: int
    die_sides: int
    dice_per_drive: int
    min_drive: int
    pit_stop_draw: int
    pit_stop_keep: int
    multiplayer_min_players: int
    max_rounds: int
    banana_blocked: str  # "next_free" or "lost": a Banana aimed at an occupied space (5.4)
    first_drafter: str  # "random": the draft's Player 1 drawn per game; "first_player": seat 0 (2.3, 2.6)
    wiped_next_turn: bool  # Wiped Out during one's own turn skips the next turn's Drive, not this one's (5.3)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.draft_parts))


@dataclass(frozen=True)
class CardTable:
    ids: tuple[str, ...]  # (K,)
    names: tuple[str, ...]  # (K,)
    type: np.ndarray  # (K,) int8: index into vocabulary.CARD_TYPES
    count: np.ndarray  # (K,) int16: copies in the database
    cost: np.ndarray  # (K,) int16: coins to buy from the Showroom
    flags: np.ndarray  # (K,) uint8: bit i set = vocabulary.FLAGS[i] present
    group: np.ndarray  # (K,) int8: index into GROUPS (parts, starter, debris)

    def has_flag(self, flag: str) -> np.ndarray:
        """(K,) bool: which cards carry `flag`."""
        return (self.flags & flag_bit(flag)) != 0

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)


@dataclass(frozen=True)
class PlaybookTable:
    ids: tuple[str, ...]  # (B,)
    names: tuple[str, ...]  # (B,)
    count: np.ndarray  # (B,) int8: 1 in the Playbook Deck, 0 if removed


@dataclass(frozen=True)
class EffectTable:
    """One row per effect; N rows in all (cards first, then Playbooks)."""

    owner_is_playbook: np.ndarray  # (N,) bool: False = a card's effect, True = a Playbook's
    owner: np.ndarray  # (N,) int16: card or Playbook index
    op: np.ndarray  # (N,) int8: index into vocabulary.OPS
    trigger: np.ndarray  # (N,) int8: index into vocabulary.TRIGGERS; NONE on cards
    value: np.ndarray  # (N,) int16: the op's number (amount, count, extra, below, distance); 0 if none
    target: np.ndarray  # (N,) int8: index into TARGETS or NONE
    keep: np.ndarray  # (N,) int8: index into DICE_KEEP or NONE
    scrap_from: np.ndarray  # (N,) int8: index into SCRAP_FROM or NONE
    per: np.ndarray  # (N,) int8: index into PER_COUNTERS or NONE
    card_type: np.ndarray  # (N,) int8: index into PLAYABLE_TYPES (extra_play) or NONE
    if_played: np.ndarray  # (N,) uint8: bit t = must have played a card of playable type t; 0 = no condition
    if_leading: np.ndarray  # (N,) int8: NONE = any, 0 = must not lead, 1 = must lead
    if_last: np.ndarray  # (N,) int8: NONE = any, 0 = must not be last, 1 = must be last
    if_laps: np.ndarray  # (N,) int32: bit l-1 = allowed on lap l; 0 = any lap
    if_min_coins: np.ndarray  # (N,) int16: 0 = no condition
    if_min_puzzle: np.ndarray  # (N,) int16: 0 = no condition
    if_behind_leader: np.ndarray  # (N,) int16: 0 = no condition

    def __len__(self) -> int:
        return len(self.op)

    def has_condition(self) -> np.ndarray:
        """(N,) bool: the row has an `if:` (in each column 0 or NONE means "no condition")."""
        return (
            (self.if_played != 0)
            | (self.if_leading != NONE)
            | (self.if_last != NONE)
            | (self.if_laps != 0)
            | (self.if_min_coins != 0)
            | (self.if_min_puzzle != 0)
            | (self.if_behind_leader != 0)
        )

    def rows(self, op: str) -> np.ndarray:
        """Row indices of one op."""
        return np.flatnonzero(self.op == list(V.OPS).index(op))


@dataclass(frozen=True)
class Tables:
    rules: RuleTable
    cards: CardTable
    playbooks: PlaybookTable
    effects: EffectTable

    def parts_deck(self, players: int) -> np.ndarray:
        """(K,) copies in the Parts Deck at this player count: (M) cards leave it
        below rules.multiplayer_min_players (rulebook 1.2)."""
        in_deck = self.cards.group == GROUPS.index("parts")
        if players < self.rules.multiplayer_min_players:
            in_deck &= ~self.cards.has_flag("M")
        return np.where(in_deck, self.cards.count, 0).astype(np.int16)


def _card_counts(db: Database) -> np.ndarray:
    """(K,) copies of each card in the game: the database's counts, with the
    Debris card's set by rules.debris_supply when given (`unlimited`: MAX_COPIES,
    the most a card may have in the 8-bit piles; more than a game has used)."""
    count = np.array([c.count for c in db.cards], dtype=np.int16)
    setting = db.rules.debris_supply
    if setting is not None:
        debris = [c.id for c in db.cards].index(db.rules.debris_card)
        count[debris] = MAX_COPIES if setting == "unlimited" else setting
    return count


def compile_database(db: Database) -> Tables:
    rules = db.rules
    card_ids = tuple(c.id for c in db.cards)
    space_kind = np.zeros(rules.track_length + 1, dtype=np.int8)
    space_kind[rules.auction_spaces] = SPACE_AUCTION
    space_kind[rules.incinerator_spaces] = SPACE_INCINERATOR
    starting = np.zeros(len(card_ids), dtype=np.int16)
    for card_id, copies in rules.starting_deck.items():
        starting[card_ids.index(card_id)] = copies
    rule_table = RuleTable(
        track_length=rules.track_length,
        laps=rules.laps,
        space_kind=_frozen(space_kind),
        starting_coins=rules.starting_coins,
        seat_coins=_frozen(
            np.pad(np.array(rules.seat_coins, dtype=np.int16), (0, MAX_PLAYERS - len(rules.seat_coins)))
        ),
        draft_coins=_frozen(
            np.pad(np.array(rules.draft_coins, dtype=np.int16), (0, MAX_PLAYERS - len(rules.draft_coins)))
        ),
        hand_size=rules.hand_size,
        purchase_cost=rules.purchase_cost,
        refresh_cost=rules.refresh_cost,
        showroom_size=rules.showroom_size,
        draft_parts={n: p.parts for n, p in rules.draft_pool.items()},
        draft_playbooks={n: p.playbooks for n, p in rules.draft_pool.items()},
        parts_drafted=rules.parts_drafted,
        playbooks_drafted=rules.playbooks_drafted,
        starting_deck=_frozen(starting),
        type_limits=_frozen(np.array([getattr(rules.type_limits, t) for t in V.PLAYABLE_TYPES], dtype=np.int8)),
        debris_card=card_ids.index(rules.debris_card),
        debris_per_lap=rules.debris_per_lap,
        die_sides=rules.die_sides,
        dice_per_drive=rules.dice_per_drive,
        min_drive=rules.min_drive,
        pit_stop_draw=rules.pit_stop.draw,
        pit_stop_keep=rules.pit_stop.keep,
        multiplayer_min_players=rules.multiplayer_min_players,
        max_rounds=rules.max_rounds,
        banana_blocked=rules.banana_blocked,
        first_drafter=rules.first_drafter,
        wiped_next_turn=rules.wiped_during_own_turn == "next_turn",
    )
    cards = CardTable(
        ids=card_ids,
        names=tuple(c.name for c in db.cards),
        type=_frozen(np.array([V.CARD_TYPES.index(c.type) for c in db.cards], dtype=np.int8)),
        count=_frozen(_card_counts(db)),
        cost=_frozen(np.array([rules.purchase_cost if c.cost is None else c.cost for c in db.cards], dtype=np.int16)),
        flags=_frozen(np.array([sum(flag_bit(f) for f in c.flags) for c in db.cards], dtype=np.uint8)),
        group=_frozen(np.array([GROUPS.index(c.group) for c in db.cards], dtype=np.int8)),
    )
    playbooks = PlaybookTable(
        ids=tuple(p.id for p in db.playbooks),
        names=tuple(p.name for p in db.playbooks),
        count=_frozen(np.array([p.count for p in db.playbooks], dtype=np.int8)),
    )
    owned = [(False, i, e) for i, c in enumerate(db.cards) for e in c.effects]
    owned += [(True, i, e) for i, p in enumerate(db.playbooks) for e in p.effects]
    return Tables(rule_table, cards, playbooks, _effect_table(owned))


def _effect_table(owned: list[tuple[bool, int, Effect]]) -> EffectTable:
    columns: dict[str, list[int]] = {name: [] for name in EffectTable.__dataclass_fields__}
    for is_playbook, owner, effect in owned:
        spec = V.OPS[effect.op]
        p, cond = effect.params, effect.condition
        row = {
            "owner_is_playbook": is_playbook,
            "owner": owner,
            "op": list(V.OPS).index(effect.op),
            "trigger": _code(V.TRIGGERS, effect.when),
            "value": p[spec.value] if spec.value else 0,
            "target": _code(V.TARGETS, p.get("target")),
            "keep": _code(V.DICE_KEEP, p.get("keep")),
            "scrap_from": _code(V.SCRAP_FROM, p.get("from")),
            "per": _code(V.PER_COUNTERS, p.get("per")),
            "card_type": _code(V.PLAYABLE_TYPES, p.get("type")),
            "if_played": 0,
            "if_leading": NONE,
            "if_last": NONE,
            "if_laps": 0,
            "if_min_coins": 0,
            "if_min_puzzle": 0,
            "if_behind_leader": 0,
        }
        if cond is not None:
            row["if_played"] = sum(1 << V.PLAYABLE_TYPES.index(t) for t in set(cond.played or ()))
            row["if_leading"] = NONE if cond.leading is None else int(cond.leading)
            row["if_last"] = NONE if cond.last is None else int(cond.last)
            laps = [cond.lap] if isinstance(cond.lap, int) else cond.lap or []
            row["if_laps"] = sum(1 << (lap - 1) for lap in set(laps))
            row["if_min_coins"] = cond.min_coins or 0
            row["if_min_puzzle"] = cond.min_puzzle_in_play or 0
            row["if_behind_leader"] = cond.behind_leader or 0
        for name, value in row.items():
            columns[name].append(value)
    dtypes = {
        "owner_is_playbook": bool,
        "owner": np.int16,
        "value": np.int16,
        "if_played": np.uint8,
        "if_laps": np.int32,
    }
    dtypes |= {name: np.int16 for name in ("if_min_coins", "if_min_puzzle", "if_behind_leader")}
    return EffectTable(
        **{name: _frozen(np.array(values, dtype=dtypes.get(name, np.int8))) for name, values in columns.items()}
    )
