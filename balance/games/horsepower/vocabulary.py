"""The fixed words of a Horsepower card database: types, flags, targets,
triggers, conditions and effect ops.

Everything a card does is one of the ops below, with a handful of fields. The
set is closed on purpose: the engine applies each op to a whole batch of games
with array operations, so an op is a row in a table (op code, one number, a
few categorical codes), never a Python callback. docs/cards.md explains each
word with an example; a test keeps the two in step.

Order matters in every tuple here: the position is the integer code the
compiled tables use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import limits as L

CARD_TYPES: tuple[str, ...] = ("engine", "frame", "wheels", "utility", "investment", "debris")
# The types a player can play (Debris "cannot be played", rulebook 7.1).
PLAYABLE_TYPES: tuple[str, ...] = CARD_TYPES[:5]

FLAGS: dict[str, str] = {
    "S": "starter",
    "M": "multiplayer",
    "E": "expires",
    "P": "puzzle",
    "D": "debris",
}

# Who an effect hits. Every target but `self` names an opponent; when no
# opponent fits (nobody ahead, say) the effect does nothing.
TARGETS: tuple[str, ...] = (
    "self",
    "leader",
    "next",
    "nearest_ahead",
    "nearest_behind",
    "all_others",
)

# When a Playbook effect fires. Cards have no trigger: they resolve when played.
TRIGGERS: tuple[str, ...] = (
    "always",
    "turn_start",
    "lap_complete",
    "auction",
    "incinerator",
    "wiped_out",
    "buy",
    "pit_stop",
    "race_through",
)

# Counters an amount can be multiplied by (`per:`).
PER_COUNTERS: tuple[str, ...] = (
    "puzzle_in_play",
    "lap",
    "opponents_ahead",
    "playbooks",
)

DICE_KEEP: tuple[str, ...] = ("sum", "best")
SCRAP_FROM: tuple[str, ...] = ("this", "hand", "garage", "hand_or_garage")

# The keys an `if:` mapping may hold; all of them must hold for the effect.
CONDITIONS: dict[str, str] = {
    "played": "list of card types; you played at least one card of each this turn",
    "leading": "true/false; no opponent is ahead of you in the race",
    "last": "true/false; no opponent is behind you in the race",
    "lap": "a lap number or a list of them; your current lap",
    "min_coins": "integer; you hold at least this many coins",
    "min_puzzle_in_play": "integer; at least this many Puzzle cards in your play area",
    "behind_leader": "integer; the leading opponent is at least this many spaces ahead",
}

# An op's kind decides when it may fire:
#   modifier: changes something about the current turn (Drive, dice, prices,
#             play limits, End Phase draw); on a Playbook it needs `when:
#             always` (a standing modifier) or `turn_start` (this turn only).
#   instant:  happens once, at the moment it resolves; on a Playbook any
#             trigger but `always`.
#   duration: lasts until your next turn; only on cards with the E flag.
OP_KINDS: tuple[str, ...] = ("modifier", "instant", "duration")


@dataclass(frozen=True)
class FieldSpec:
    """One field of an op: an integer with bounds, or a word from a list."""

    kind: str  # "int" or the name of a vocabulary: target, keep, from, per, type
    required: bool = False
    default: object = None
    ge: int | None = None
    le: int | None = None
    nonzero: bool = False
    doc: str = ""


@dataclass(frozen=True)
class OpSpec:
    name: str
    kind: str  # one of OP_KINDS
    value: str | None  # the field compiled into the `value` column, if any
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    doc: str = ""


def _target(doc: str = "who is affected") -> FieldSpec:
    return FieldSpec("target", required=True, doc=doc)


_PER = FieldSpec("per", doc="multiply the amount by this counter")

OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec(
            "drive",
            "modifier",
            "amount",
            {
                "amount": FieldSpec(
                    "int", required=True, ge=-L.MAX_TRACK, le=L.MAX_TRACK, doc="Drive added (may be negative)"
                ),
                "per": _PER,
            },
            "Add to this turn's Drive total.",
        ),
        OpSpec(
            "dice",
            "modifier",
            "extra",
            {
                "extra": FieldSpec("int", default=1, ge=1, le=5, doc="extra dice rolled"),
                "keep": FieldSpec("keep", default="sum", doc="sum: add every die; best: keep the highest one"),
            },
            "Roll extra dice in this turn's Drive roll.",
        ),
        OpSpec(
            "reroll",
            "modifier",
            "below",
            {"below": FieldSpec("int", required=True, ge=2, le=20, doc="reroll a die showing less than this")},
            "If the Drive die shows less than `below`, roll it once more; the new roll stands.",
        ),
        OpSpec(
            "coins",
            "instant",
            "amount",
            {
                "amount": FieldSpec("int", required=True, ge=1, le=L.MAX_COINS, doc="coins gained from the bank"),
                "per": _PER,
            },
            "Gain coins.",
        ),
        OpSpec(
            "discount",
            "modifier",
            "amount",
            {"amount": FieldSpec("int", required=True, ge=1, le=L.MAX_COINS, doc="coins off each purchase")},
            "Each Showroom purchase this turn costs `amount` less (never below 0).",
        ),
        OpSpec(
            "free_refresh",
            "modifier",
            "count",
            {"count": FieldSpec("int", default=1, ge=1, le=L.SHOP_STEPS, doc="free refreshes")},
            "Refresh the Showroom `count` times this turn without paying.",
        ),
        OpSpec(
            "steal_coins",
            "instant",
            "amount",
            {"amount": FieldSpec("int", required=True, ge=1, le=L.MAX_COINS, doc="coins taken"), "target": _target()},
            "Take up to `amount` coins from each target.",
        ),
        OpSpec(
            "draw",
            "instant",
            "count",
            {"count": FieldSpec("int", default=1, ge=1, le=L.MAX_HAND, doc="cards drawn")},
            "Draw cards from your Deck into your hand (Garage reshuffled if the Deck runs out).",
        ),
        OpSpec(
            "scrap",
            "instant",
            "count",
            {
                "from": FieldSpec("from", required=True, doc="this: the card itself; else the zone to scrap from"),
                "count": FieldSpec("int", default=1, ge=1, le=L.MAX_HAND, doc="cards scrapped at most"),
            },
            "Scrap cards: `this` removes the card itself after it resolves (a one-shot); "
            "a zone lets you scrap up to `count` cards from it (optional).",
        ),
        OpSpec("wipe_out", "instant", None, {"target": _target()}, "The target becomes Wiped Out."),
        OpSpec(
            "banana",
            "instant",
            "distance",
            {
                "target": _target("whose position the Banana is placed ahead of"),
                "distance": FieldSpec("int", default=1, ge=1, le=L.MAX_TRACK, doc="spaces ahead of the target"),
            },
            "Place a Banana `distance` spaces ahead of the target.",
        ),
        OpSpec(
            "push",
            "instant",
            "amount",
            {
                "target": _target(),
                "amount": FieldSpec(
                    "int",
                    required=True,
                    ge=-L.MAX_TRACK,
                    le=L.MAX_TRACK,
                    nonzero=True,
                    doc="spaces; positive forward, negative back",
                ),
            },
            "Move the target forward (or back, if negative); space effects fire where it stops.",
        ),
        OpSpec(
            "give_debris",
            "instant",
            "count",
            {"target": _target(), "count": FieldSpec("int", default=1, ge=1, le=L.MAX_HAND, doc="Debris cards given")},
            "Put Debris from the supply into each target's Garage.",
        ),
        OpSpec("shield", "duration", None, {}, "Until your next turn, other players' effects cannot target you."),
        OpSpec(
            "slow",
            "duration",
            "amount",
            {"target": _target(), "amount": FieldSpec("int", required=True, ge=1, le=L.MAX_TRACK, doc="Drive lost")},
            "Until your next turn, each target's Drive total is reduced by `amount`.",
        ),
        OpSpec(
            "hand_size",
            "modifier",
            "amount",
            {
                "amount": FieldSpec(
                    "int",
                    required=True,
                    ge=-L.MAX_HAND,
                    le=L.MAX_HAND,
                    nonzero=True,
                    doc="extra cards drawn in the End Phase",
                )
            },
            "Draw `amount` more (or fewer) cards in this turn's End Phase.",
        ),
        OpSpec(
            "extra_play",
            "modifier",
            "count",
            {
                "type": FieldSpec("type", required=True, doc="a playable card type"),
                "count": FieldSpec(
                    "int", default=1, ge=1, le=L.EXTRA_PLAY_ROUNDS, doc="extra plays (the engine offers 2 at most)"
                ),
            },
            "You may play `count` more cards of `type` this turn.",
        ),
    )
}

# The word lists a categorical field draws from.
CHOICES: dict[str, tuple[str, ...]] = {
    "target": TARGETS,
    "keep": DICE_KEEP,
    "from": SCRAP_FROM,
    "per": PER_COUNTERS,
    "type": PLAYABLE_TYPES,
}

# Triggers each op kind accepts on a Playbook.
TRIGGERS_BY_KIND: dict[str, tuple[str, ...]] = {
    "modifier": ("always", "turn_start"),
    "instant": tuple(t for t in TRIGGERS if t != "always"),
    "duration": (),
}
