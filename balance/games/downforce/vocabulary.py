"""The fixed words and numbers of a Downforce database: the reserved car word
`wild`, the power card ids, and the sizes the board and score sheet fix.

The colours themselves are data (`cars:` in downforce.yaml): their order there
is the car code the compiled tables use. What is closed here is what the engine
interprets: a wild car, the six powers (each a rule the engine applies by id,
never a Python callback from the file), and the shapes of the prize and
betting tables. docs/downforce.md explains each word.

Order matters in every tuple here: the position is the integer code the
compiled tables use.
"""

from __future__ import annotations

from dataclasses import dataclass

# A white car on a speed card: the player who plays it picks the colour.
WILD = "wild"

# The box holds six cars, the board six starting spaces, the score sheet six
# prizes (one per finishing place): the engine's shapes rely on it.
N_CARS = 6

# Three betting lines on every track, each paying for a bet car finishing
# 1st, 2nd or 3rd: rules.bet_payouts is (BETTING_LINES, BET_PLACES).
BETTING_LINES = 3
BET_PLACES = 3

# A card names each colour at most once, and "cards with two wild cars" are the
# most the rulebook mentions.
MAX_WILDS = 2

# Track grids: lanes per row (lane 0 is the inside lane), and forward
# neighbours per space (the next row's lanes l-1, l, l+1).
MIN_LANES = 2
MAX_LANES = 4
MAX_NEXT = 3


@dataclass(frozen=True)
class PowerSpec:
    id: str
    params: tuple[str, ...]  # numbers the card's entry must give (each 1 to schema.MAX_BONUS)
    doc: str


POWERS: dict[str, PowerSpec] = {
    spec.id: spec
    for spec in (
        PowerSpec(
            "aggressive",
            ("bonus",),
            "Your car first on a card you play moves `bonus` extra spaces; not when a wild is first, "
            "even if you pick your own car for it.",
        ),
        PowerSpec("cunning", (), "You choose how your cars move, even on other players' turns."),
        PowerSpec(
            "determined",
            ("bonus",),
            "A car of yours that entered only rectangular (non-curve) spaces in its regular move moves "
            "`bonus` more spaces at once, before the next car on the card (the bonus is ours: the "
            "rulebook does not print it).",
        ),
        PowerSpec("strategic", (), "You may skip one car on a card you play."),
        PowerSpec("tricky", (), "You choose the order of the cars on a card you play."),
        PowerSpec("unpredictable", (), "Your wilds may be any colour, even one already on the card."),
    )
}
