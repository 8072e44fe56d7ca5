"""The fixed words of a Heat database: card types, tiers, effect ops and the
choices a few rules offer.

The lists are closed on purpose: the engine applies each op to a whole batch
of games with array operations, so an op is a column of the compiled card
table, never a Python callback. docs/heat.md explains each word.

Order matters in every tuple here: the position is the integer code the
compiled tables use.
"""

from __future__ import annotations

from dataclasses import dataclass

CARD_TYPES: tuple[str, ...] = ("speed", "stress", "heat", "upgrade", "sponsor")

# Where a card comes from. basic_speed: the 12 speed cards of every deck;
# starting: the base game's upgrades (left out when the Garage module is used);
# garage_basic / garage_advanced: the Garage pool (our reading of the split).
# sponsor: the Championship's Sponsorship cards, in the sponsor pile (only in a season's races).
# Stress has no tier: every deck holds it and the track says how many.
TIERS: tuple[str, ...] = ("basic_speed", "starting", "garage_basic", "garage_advanced", "sponsor")
GARAGE_TIERS: tuple[str, ...] = ("garage_basic", "garage_advanced")

# The tiers each card type may take; () means "no tier".
TIERS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "speed": ("basic_speed",),
    "stress": (),
    "heat": ("starting",),
    "upgrade": ("starting", "garage_basic", "garage_advanced"),
    "sponsor": ("sponsor",),
}

# Adrenaline (facts: "may add +1 speed or cool down 1"; some editions take both).
ADRENALINE_MODES: tuple[str, ...] = ("either", "both")

# Garage draft: snake reverses the order every round, round_robin never does.
DRAFT_ORDERS: tuple[str, ...] = ("snake", "round_robin")


@dataclass(frozen=True)
class OpSpec:
    name: str
    signed: bool  # True: amount may be negative (never 0); False: amount is at least 1
    doc: str


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec(
            "heat",
            False,
            "Pay `amount` Heat from the Engine to the discard pile. If you cannot, the card is "
            "discarded and a random speed card is played instead (facts sheet).",
        ),
        OpSpec("cooldown", False, "Move up to `amount` Heat cards from your hand back to the Engine."),
        OpSpec("scrap", False, "Move `amount` cards from the top of your draw deck to your discard pile."),
        OpSpec("discard_stress", False, "Discard up to `amount` Stress cards from your hand."),
        OpSpec("slipstream", False, "Add `amount` spaces to this turn's slipstream move."),
        OpSpec("corner_limit", True, "Raise (or lower, if negative) this round's corner limits for this car."),
        OpSpec(
            "super_cool",
            False,
            "Super Cool (Heavy Rain): in the React step, return up to `amount` Heat cards from your discard pile "
            "to the Engine.",
        ),
        OpSpec(
            "draft",
            False,
            "Draft (Tunnel Vision): in the React step, move up to `amount` spaces (a card's Draft adds up) onto the "
            "space right behind the next car ahead, through empty spaces only; not Speed.",
        ),
        OpSpec(
            "salvage",
            False,
            "Salvage (BGA's): in the React step, choose up to `amount` cards from your discard pile and shuffle "
            "them into your draw deck.",
        ),
        OpSpec(
            "refresh",
            False,
            "Refresh (BGA's): in the discard step, you may put this card, played this turn, on top of your draw "
            "deck instead of discarding it (the first card you draw next).",
        ),
        OpSpec(
            "direct_play",
            False,
            "Direct Play (BGA's): you may play this card from your hand in the React step, as if played normally: "
            "its Speed moves the car on and counts at the corners, its icons apply; not one of the gear's cards.",
        ),
        OpSpec(
            "accelerate",
            False,
            "Accelerate (BGA's): in the React step, you may add 1 Speed (and move 1 space) for each card flipped "
            "this turn (a Stress card's or a \"+\" icon's, a Boost's).",
        ),
    )
}

# Press Corners are named by letters, A the first corner from the start (a chicane counted once).
PRESS_LETTERS: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# The expansions whose Garage upgrades a database may hold (rules.expansions puts them in the pool).
EXPANSIONS: tuple[str, ...] = ("heavy_rain", "tunnel_vision")
