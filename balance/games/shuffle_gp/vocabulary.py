"""The fixed words of a Shuffle Grand Prix database: ability card types, the
effect ops with their kind and fields, targets, trap triggers, specialty
conditions and cancel kinds.

The lists are closed on purpose: the engine applies each op to a whole batch
of games with array operations, so an effect is a row of codes and one
number in the compiled tables, never a Python callback. docs/shuffle_gp.md
explains each word; a test keeps the two in step.

Order matters in every tuple here: the position is the integer code the
compiled tables use.
"""

from __future__ import annotations

from dataclasses import dataclass

# The icon in a card's top left corner (rulebook, Abilities).
CARD_TYPES: tuple[str, ...] = ("action", "equip", "trap", "nerf", "anytime")

# Who an effect hits. `self` is the card's player (a trap's owner, a
# specialty's driver); `triggerer` is the player whose move set off a trap or
# a specialty (the only player a trap "knows": you are not immune to your own).
# When nobody fits (no rival ahead, an immune rival) the effect does nothing.
TARGETS: tuple[str, ...] = ("self", "one_rival", "all_rivals", "leader", "next", "triggerer")
RIVAL_TARGETS: tuple[str, ...] = ("one_rival", "all_rivals", "leader", "next", "triggerer")
SINGLE_RIVAL_TARGETS: tuple[str, ...] = ("one_rival", "leader", "next", "triggerer")

# What sets a trap off: the first time any player, the trap's owner included,
# does this after the trap is played. The trap then resolves and is discarded.
TRIGGERS: tuple[str, ...] = ("draws_distance", "plays_action", "plays_equip", "any_damage", "heals", "pit_stop")

# When a driver's specialty acts, while that driver is active (not the
# co-pilot). `always` is a standing modifier (lasting ops); the others are
# events of the driver's own player (instant ops).
CONDITIONS: tuple[str, ...] = (
    "always",
    "turn_start",
    "draws_distance",
    "plays_action",
    "deals_damage",
    "takes_damage",
    "trap_sprung",
)
# The conditions whose event has another player in it: the `triggerer`.
TRIGGERER_CONDITIONS: tuple[str, ...] = ("takes_damage", "trap_sprung")

# How an anytime card cancels the card being played (FAQ): `replace` stops it
# for everyone, `avoid` only for the player of the anytime card.
CANCELS: tuple[str, ...] = ("replace", "avoid")

# An op's kind decides which cards may carry it:
#   instant: happens once, when its card resolves (an action when played, a
#            trap when sprung, an anytime card when played);
#   lasting: holds while its card sits on a car (an equip on your own, a nerf
#            on a rival's), for the card's `turns` or until the card is removed.
OP_KINDS: tuple[str, ...] = ("instant", "lasting")
TYPES_BY_KIND: dict[str, tuple[str, ...]] = {"instant": ("action", "trap", "anytime"), "lasting": ("equip", "nerf")}

# What an op's `amount` is: a count (at least 1), signed (not 0: + helps the
# car the card sits on, - hurts it), or none (the op takes no amount).
AMOUNTS: tuple[str, ...] = ("count", "signed", "none")

# The largest amount of each op (docs/shuffle_gp.md, "Limits"); a signed amount
# is bounded either way. Ops that repeat a step `amount` times (draw, discard,
# steal, skip, remove...) take at most REPEATS: the engine loops over the steps.
REPEATS = 10
HEALTH = 100  # the largest tire health (schema.MAX_TIRE), and of damage and heal: more changes nothing
SHIELD = 30  # a card's shields are summed into an int8 slot (127): 4 effects x 30
POINTS = 1000  # a distance card's largest value (schema.MAX_DISTANCE_VALUE), and of a distance_bonus


@dataclass(frozen=True)
class OpSpec:
    name: str
    kind: str  # one of OP_KINDS
    targets: tuple[str, ...]  # the targets it accepts; () = takes no target (it acts on you, or on the car)
    amount: str  # one of AMOUNTS
    default: int | None  # the amount when left out; None = required (or no amount)
    only: tuple[str, ...] | None  # card types that may carry it, where narrower than its kind's
    doc: str
    most: int  # the largest amount (either way for a signed one); 0 for ops without an amount

    @property
    def types(self) -> tuple[str, ...]:
        return self.only or TYPES_BY_KIND[self.kind]


def _op(name, kind, targets, amount, default, doc, only=None, most=REPEATS) -> OpSpec:
    return OpSpec(name, kind, targets, amount, default, only, doc, 0 if amount == "none" else most)


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        _op(
            "damage",
            "instant",
            TARGETS,
            "count",
            None,
            "Each target loses `amount` tire health (after its damage_reduction, then its shields); "
            "at 0 it spins out and whoever dealt the blow takes a trophy.",
            most=HEALTH,
        ),
        _op(
            "heal",
            "instant",
            (),
            "count",
            None,
            "You regain `amount` tire health, never above full (no over-healing).",
            most=HEALTH,
        ),
        _op(
            "steal_card",
            "instant",
            RIVAL_TARGETS,
            "count",
            1,
            "Take `amount` cards at random from each target's hand; they are yours now. Discard down to the "
            "hand size; the target draws back up to it.",
        ),
        _op(
            "discard_distance",
            "instant",
            TARGETS,
            "count",
            1,
            "Each target's top `amount` distance cards go face down to the bottom of the distance deck.",
        ),
        _op("draw_distance", "instant", (), "count", 1, "Draw `amount` extra distance cards onto your stack."),
        _op(
            "swap_top_distance",
            "instant",
            SINGLE_RIVAL_TARGETS,
            "none",
            None,
            "Swap your top distance card with the target's (optional: the player may decline).",
        ),
        _op(
            "skip_turn",
            "instant",
            TARGETS,
            "count",
            1,
            "Each target skips its next `amount` turns: no distance card, no ability play, no trophies spent.",
        ),
        _op(
            "draw_ability",
            "instant",
            (),
            "count",
            1,
            "Draw `amount` ability cards from your draw pile, then discard down to the hand size.",
        ),
        _op("extra_play", "instant", (), "count", 1, "Play `amount` more ability cards this turn."),
        _op(
            "remove_equip",
            "instant",
            RIVAL_TARGETS,
            "count",
            1,
            "Discard up to `amount` equips from each target's car (the card's player picks which).",
        ),
        _op(
            "remove_nerf",
            "instant",
            (),
            "count",
            1,
            "Send up to `amount` nerfs on your car back to the players who played them.",
        ),
        _op(
            "shield",
            "lasting",
            (),
            "count",
            None,
            "Absorbs up to `amount` damage in all (FAQ); what is left draws tire health down. Spent, the "
            "card is discarded.",
            only=("equip",),
            most=SHIELD,
        ),
        _op(
            "distance_bonus",
            "lasting",
            (),
            "signed",
            None,
            "Each distance card the car's player draws scores `amount` more distance points (less if "
            "negative; a card never scores below 0).",
            most=POINTS,
        ),
        _op(
            "damage_bonus",
            "lasting",
            (),
            "signed",
            None,
            "Each damage effect the car's player deals hits each target for `amount` more (less if negative).",
            most=HEALTH,
        ),
        _op(
            "damage_reduction",
            "lasting",
            (),
            "signed",
            None,
            "Each damage effect the car's player takes is `amount` less (more if negative), before shields.",
            most=HEALTH,
        ),
        _op(
            "no_ability_play",
            "lasting",
            (),
            "none",
            None,
            "The car's player cannot play action, equip, trap or nerf cards (anytime cards, pit stops, "
            "discarding and passing stay open).",
            only=("nerf",),
        ),
    )
}
