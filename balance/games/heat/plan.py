"""Steps 1 and 2 of a round, for every car at once (rulebook "Turn Steps"):
shift gears and choose the cards to play, face down.

A bot aims at a target speed (`target_speed`): as fast as it can, except that
across the next corner it goes no faster than the limit plus the Heat it is
willing to pay (`risk` of the Engine's Heat above `reserve`), and never into
the corner after that. For each gear it may shift to, it picks cards
greedily, each as close as possible to the speed still needed per card left
to play, and scores the plan: the expected speed less `heat_value` spaces for
each Heat it would owe; a plan that could spin out (Stress and "+" flips at
their highest) scores as stopping before the corner with the spin-out's cost;
plus the Cooldown the gear gives, less the Heat a double shift costs.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from ..profiles import noise_span
from .moves import pay_heat
from .race import Race
from .state import State

OPEN_ROAD = 40  # target speed where no corner is in reach: as fast as possible
SPIN_COST = 6.0  # spaces a spin-out costs besides stopping short: Stress in hand, gear 1
UNFILLABLE = 1_000.0  # score penalty per card short of what the gear must play


def target_speed(
    race: Race, pos: np.ndarray, engine: np.ndarray, q: np.ndarray, mod: np.ndarray | int = 0
) -> np.ndarray:
    """(n,) the speed each bot aims at this round (`mod`: the corner limits raised
    by the corner-limit cards it means to play)."""
    c = race.course
    nxt = c.next_corner(pos)
    to_line = c.corner_at[nxt] - pos  # moving this far crosses the next corner
    after = c.corner_at[np.minimum(nxt + 1, c.corners)] - pos  # ... and this far the one after it
    spare = np.maximum(engine.astype(np.int32) - race.bots.reserve[q], 0)
    allowance = np.floor(race.bots.risk[q] * spare).astype(np.int32)
    cross = np.minimum(c.limit[nxt] + mod + allowance, after - 1)
    target = np.where(cross >= to_line, cross, to_line - 1)
    # no corner before the finish: full speed
    return np.where((nxt >= c.corners) | (c.finish - pos <= to_line), OPEN_ROAD, target).astype(np.int16)


def choose_cards(
    race: Race,
    hand: np.ndarray,
    cols: np.ndarray,
    gear: np.ndarray,
    target: np.ndarray,
    budget: np.ndarray,
    noise: np.ndarray,
    jitter: np.ndarray,
    prefer: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Greedy: `gear` (n,) cards from `hand` (n, J), the playable cards `cols`
    (J,) that some hand holds, each the card closest to the speed still needed
    per card left, paying card Heat from `budget` (a card it cannot pay counts
    as the random speed card played instead). With a corner in reach a
    flip ("+", Stress) counts at the highest basic speed it could show (the
    bot does not gamble on it there). `jitter` (n, J): the round's uniform
    noise, mixed in by `noise`; `prefer` (J,): cards taken first (the corner-limit
    cards of a plan built around them). Returns (n, J) chosen, (n,) their expected
    speed, (n,) how many could be chosen (fewer than `gear`: the car overheats)."""
    n, J = hand.shape
    rows = np.arange(n)
    left = hand.astype(np.int16)
    chosen = np.zeros_like(left)
    total = np.zeros(n, np.float32)
    count = np.zeros(n, np.int16)
    budget = budget.astype(np.int32).copy()
    cards = race.tables.cards
    heat_cost = race.heat_cost[cols]
    top = cards.speed[cards.is_basic].max(initial=0)
    careful = (target < OPEN_ROAD)[:, None] * (top - race.flip_mean) * cards.flips[cols][None, :].astype(np.float32)
    base = np.broadcast_to(race.value[cols], (n, J))
    choice = np.flatnonzero(np.isin(cols, race.choice_cards))  # positions in cols of choice cards
    options = cards.choices[cols[choice]].astype(np.float32)  # (c, C), -1 padded
    noise_part = noise_span(noise)[:, None] * jitter
    counted = np.zeros(n, np.float32)  # the chosen cards' speed as the bot counts it
    if J == 0:  # no hand holds a playable card (a database whose decks are empty): nothing to choose
        return chosen, total, count
    for step in range(int(gear.max(initial=0))):
        slots = gear.astype(np.int32) - step
        active = slots > 0
        ideal = (target - counted) / np.maximum(slots, 1)
        value = base
        if len(choice):  # a choice card counts as its choice nearest the ideal
            value = base.copy()
            gap = np.where(options[None] >= 0, np.abs(options[None] - ideal[:, None, None]), np.inf)
            value[:, choice] = np.take_along_axis(
                np.broadcast_to(options, gap.shape), gap.argmin(axis=2)[:, :, None], axis=2
            )[:, :, 0]
        ok = active[:, None] & (left > 0)
        # a card whose Heat the Engine cannot pay is played as a random speed card (a flip)
        unpaid = heat_cost[None, :] > budget[:, None]
        value = np.where(unpaid, race.flip_mean, value)
        counts_as = value + np.where(unpaid, (target < OPEN_ROAD)[:, None] * (top - race.flip_mean), careful)
        score = noise_part - np.abs(counts_as - ideal[:, None])
        if prefer is not None:
            score = score + prefer[None, :]
        pick = np.where(ok, score, -np.inf).argmax(axis=1)
        took = ok[rows, pick]
        r, k = rows[took], pick[took]
        left[r, k] -= 1
        chosen[r, k] += 1
        total[took] += value[took, k]
        counted[took] += counts_as[took, k]
        budget[took] -= np.where(unpaid[took, k], 0, heat_cost[k])
        count[took] += 1
    return chosen, total, count


def plan_round(race: Race, st: State) -> None:
    """Every running player car (not the Legends) shifts and chooses its cards."""
    g, p = np.nonzero(st.running[:, None] & ~st.finished & ~st.is_legend)
    n = len(g)
    if n == 0:
        return
    rules, bots = race.tables.rules, race.bots
    q = st.bots[g, p]
    noise = bots.noise[q]
    hand = st.hand[g, p]
    engine = st.engine[g, p].astype(np.int32)
    gear = st.gear[g, p].astype(np.int32)
    heat_in_hand = hand[:, race.tables.heat_card].astype(np.int32)

    # Score every gear within reach, keep the best.
    c = race.course
    pos = st.pos[g, p].astype(np.int32)
    to_line = c.corner_at[c.next_corner(pos)] - pos
    spread = race.tables.cards.speed[race.tables.cards.is_basic].max(initial=0) - race.flip_mean
    flips = race.tables.cards.flips.astype(np.float32)
    gears = np.arange(1, rules.gears + 1)
    shift = np.abs(gears[None, :] - gear[:, None])  # (n, gears)
    cost = np.where(shift == 2, rules.shift_two_heat, 0)
    legal = (shift <= 1) | ((shift == 2) & (engine[:, None] >= cost))
    # Only the playable cards some hand holds (a handful without the Garage module).
    cols = np.flatnonzero(hand.any(axis=0) & race.playable)
    sub = hand[:, cols]
    # One draw of noise for the round's choices, a number per card keyed by the card
    # (whichever cards the other hands of the batch hold).
    jitter = chance.uniform_at(race.streams.key(g, "noise: card choice", p), cols)
    corner = race.op("corner_limit")[cols].astype(np.int32)

    def gear_plans(r: np.ndarray, prefer: np.ndarray | None, raise_by) -> tuple[list, list, np.ndarray]:
        """For the cars at rows `r`: each gear's cards, target and score (m, gears)."""
        plans, targets = [], []
        score = np.zeros((len(r), len(gears)), np.float32)
        at, qr, held, cr = pos[r], q[r], sub[r], cost[r]
        for i, new in enumerate(gears):
            budget = engine[r] - cr[:, i]
            aim = target_speed(race, at, budget, qr, raise_by)
            chosen, total, count = choose_cards(
                race, held, cols, np.full(len(r), new), aim, budget, noise[r], jitter[r], prefer
            )
            plans.append(chosen)
            targets.append(aim)
            paid_for = race.heat_cost[cols][None, :] <= budget[:, None]  # a card it cannot pay is swapped, not paid
            paying = chosen * paid_for
            left = np.maximum(budget - paying.astype(np.int32) @ race.heat_cost[cols].astype(np.int32), 0)
            mod = paying.astype(np.int32) @ corner  # the corner limits these cards raise
            speed = np.rint(total).astype(np.int32)
            worst = np.rint(total + spread * (chosen @ flips[cols])).astype(np.int32)
            spins = c.heat_due(at, at + worst, worst, mod) > left
            owed = c.heat_due(at, at + speed, speed, mod)
            value = np.where(spins, to_line[r] - 1 - SPIN_COST, total - bots.heat_value[qr] * owed)
            cooled = np.minimum(rules.cooldown[new], heat_in_hand[r])
            score[:, i] = (
                value
                + bots.cooldown[qr] * cooled
                - bots.heat_value[qr] * cr[:, i]
                - UNFILLABLE * (new - count)  # a shortfall overheats the car: the smaller the better
            )
        return plans, targets, score

    every = np.arange(n)
    plans, targets, score = gear_plans(every, None, 0)
    # Where a hand holds cards that raise corner limits, plans that play those cards
    # first and aim at the raised limit are scored beside the plain ones.
    raised = np.where(sub > 0, corner[None, :], 0).max(axis=1, initial=0)  # (n,) the best such card's raise
    r = np.flatnonzero(raised > 0)
    variants = 1
    if len(r):
        variants = 2
        more, more_targets, more_score = gear_plans(r, np.where(corner > 0, 100.0, 0.0), raised[r])
        for chosen, aim in zip(more, more_targets, strict=True):
            full = np.zeros_like(sub)
            full[r] = chosen
            plans.append(full)
            wide = np.zeros(n, aim.dtype)
            wide[r] = aim
            targets.append(wide)
        extra = np.full((n, len(gears)), -np.inf, np.float32)
        extra[r] = more_score
        score = np.concatenate([score, extra], axis=1)
    legal = np.tile(legal, (1, variants))
    # a number per plan: the plain gears, then the raised ones (drawn whether or not
    # the batch scores any, so a car's numbers are its own)
    gear_noise = chance.uniform(race.streams.key(g, "noise: gear choice", p), 2 * len(gears))
    score = np.where(
        legal,
        score + noise_span(noise)[:, None] * gear_noise[:, : score.shape[1]],
        -np.inf,
    )
    best = score.argmax(axis=1)
    new_gear = gears[best % len(gears)]
    chosen = np.zeros_like(hand)  # (n, K)
    chosen[:, cols] = np.stack(plans, axis=1)[np.arange(n), best]
    target = np.stack(targets, axis=1)[np.arange(n), best]
    paid = np.tile(cost, (1, variants))[np.arange(n), best]
    pay_heat(st, g, p, paid, race.tables.heat_card)

    # Too few playable cards for the gear: play them all, and Heat to make up the number.
    short = new_gear - chosen.sum(axis=1)
    over = short > 0
    if over.any():
        heat = np.minimum(short[over], heat_in_hand[over])
        chosen[over, race.tables.heat_card] += heat.astype(np.int16)
    st.hand[g, p] = hand - chosen
    st.play[g, p] = chosen
    st.gear[g, p] = new_gear.astype(np.int8)
    st.overheated[g, p] = over
    st.target[g, p] = target
    if race.rec.on:
        names = race.tables.cards.names

        def text(j: int) -> str:
            cards = ", ".join(
                f"{names[k]}" + (f" x{chosen[j, k]}" if chosen[j, k] > 1 else "") for k in np.flatnonzero(chosen[j])
            )
            shifted = f"gear {gear[j]} -> {new_gear[j]}" + (f" (pays {paid[j]} Heat)" if paid[j] else "")
            head = (
                f"  car {p[j]} ({race.bots.names[q[j]]}): {shifted}, Engine {st.engine[g[j], p[j]]} Heat, "
                f"aims at speed {target[j]}, plays {cards or '-'}"
            )
            return head + (" (too few playable cards: overheats)" if over[j] else "")

        race.rec.say(g, text)
