"""填大坑 random legal play, one hand and 烂锅 chains of hands: coins conserved, no leaked card, refusals change nothing."""

import random

from games.base import SeatSpec, SeededRng
from games.testing import InvariantError, check_engine_invariants, strings_in
from games.tiandakeng.engine import DEFAULT_OPTIONS, TiandakengEngine
from games.tiandakeng.rules import deck

ENGINE = TiandakengEngine()
CARDS = frozenset(deck("jiuzhou"))


class Mirrored(TiandakengEngine):
    """Deal every seat the same ranks in different suits (no 花 or jokers), so hands tie: a 烂锅 is likely.

    Only up to the third hand of a chain (its 底注 doubled twice), so that chains end.
    """

    def new_hand(self, config, seats, rng):
        state = super().new_hand(config, seats, rng)
        n = len(seats)
        if state["phase"] == "finished" or n > 4 or state["variant"] != "jiuzhou" or state["level"] > 2:
            return state
        ranks = [rng.choice("AKQJT98") for _ in range(5)]
        hands = [[r + "shcd"[(i + k) % 4] for k, r in enumerate(ranks)] for i in range(n)]
        if any(len(set(h)) < 5 for h in hands):
            return state
        used = {c for h in hands for c in h}
        state["_down"] = [h[:2] for h in hands]
        state["up"] = [h[2:3] for h in hands]
        rest = [h[3:] for h in hands]
        # Round r deals from the dealer on: lay the deck out so each seat gets its own cards.
        order = [(state["dealer"] + k) % n for k in range(n)]
        state["_deck"] = [rest[s][r] for r in range(2) for s in order] + [
            c for c in deck("jiuzhou") if c not in used
        ]
        ENGINE._start_round(state)
        return state


MIRRORED = Mirrored()


def allowed_cards(state, viewer):
    """What ``viewer`` may see, from the seed rules, independently of the engine's view code."""
    seen = {c for cards in state["up"] for c in cards}  # 明牌 (000:75)
    if viewer is not None:
        seen.update(state["_down"][viewer])  # 底牌: only their owner (000:73)
    if state["phase"] == "finished":
        for s in state["result"]["shown"]:
            seen.update(state["_down"][s])
    return seen


def view_check(state, viewer, view):
    leaked = strings_in(view, CARDS) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} leaks {sorted(leaked)}")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    others = [s for s in range(len(state["players"])) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "call"}
    if actors:
        seat = actors[0]
        yield seat, {"type": "raise", "amount": 2 * state["base"] + 10**7}
        yield seat, {"type": "raise", "amount": 1.5}
        yield seat, {"type": "check", "x": 1}
        if state["round"] < 3:
            yield seat, {"type": "allin"}
        if state["high"] > 0:
            yield seat, {"type": "check"}
        if seat in state["kicked"] and not (state["round"] == 3 and state["status"].count("active") == 2):
            yield seat, {"type": "raise", "amount": state["high"] + state["base"]}


def legal_check(state, seat, actions, rng):
    cap = ENGINE.total_cap(state)
    before = state["bets"][seat] - state["round_bets"][seat]
    for a in actions:
        if a["type"] == "raise":
            assert before + a["amount"] <= cap <= state["coins"][seat]
            assert (a["amount"] - state["high"]) // state["base"] in (1, 3, 5)
    assert ENGINE.auto_action(state, seat) in actions and ENGINE.hint(state, seat) in actions


class Stubborn(random.Random):
    """Random choices that fold less often, so more hands reach the showdown."""

    def choice(self, seq):
        picked = super().choice(seq)
        if isinstance(picked, dict) and picked.get("type") in ("fold", "allin") and self.random() < 0.85:
            picked = super().choice(seq)
        return picked


def play(engine, config, seats, seed, rng):
    state, _steps, outcome = check_engine_invariants(
        engine,
        config,
        seats,
        seed=seed,
        rng_for_choices=rng,
        illegal_actions=illegal_actions,
        view_check=view_check,
        legal_check=legal_check,
        deadline_rate=0.03,
        zero_sum=False,
        views_per_step=2,
    )
    return state, outcome


def test_single_hands_of_both_variants():
    rng = Stubborn(0)
    counts = {"fold": 0, "showdown": 0, "lanpot": 0, "xiqian": 0, "allin": 0, "shared": 0}
    for k in range(500):
        variant = "jiuzhou" if k % 2 else "dongbei"
        n = rng.randint(2, 5)
        base = rng.choice((1, 5))
        seats = [SeatSpec(i + 1, base * rng.choice((4, 60, 200, 500))) for i in range(n)]
        config = {**DEFAULT_OPTIONS, "variant": variant, "base_stake": base, "first_seat": None}
        state, outcome = play(ENGINE, config, seats, f"t{k}", rng)
        counts[outcome.details["ended_by"]] += 1
        counts["xiqian"] += any(outcome.details["xiqian"])
        counts["allin"] += state["allin"] is not None
        counts["shared"] += bool(state["shared"])
        if outcome.details["ended_by"] != "lanpot":
            assert sum(outcome.deltas) == 0
    assert min(counts.values()) >= 3, counts


def test_lanpot_chains_conserve_coins_and_let_only_the_same_players_play():
    """Hands tied at the top carry the pot; a chain ends with one winner and every coin accounted for."""
    rng = Stubborn(91)
    chains = {"long": 0, "left": 0, "alone": 0, "folded_back": 0}
    for k in range(150):
        n = rng.randint(2, 4)
        base = rng.choice((1, 2))
        wallets = {100 + i: base * rng.choice((60, 120, 400)) for i in range(n)}
        total = sum(wallets.values())
        home = {}  # what the players who left mid-chain took with them
        carry, dealer, length, eligible = None, None, 0, list(wallets)
        while True:
            players = [p for p in eligible if p in wallets]
            if carry and len(players) > 1 and rng.random() < 0.3:
                gone = rng.choice(players)  # a player leaves in the middle of the chain: their stakes stay in
                home[gone] = wallets.pop(gone)
                players.remove(gone)
                chains["left"] += 1
            first = players.index(dealer) if dealer in players else None
            seats = [SeatSpec(p, wallets[p]) for p in players]
            config = {**DEFAULT_OPTIONS, "base_stake": base, "first_seat": first, "carry": carry}
            state, outcome = play(MIRRORED, config, seats, f"c{k}-{length}", rng)
            for p, delta in zip(players, outcome.deltas, strict=True):
                wallets[p] += delta
                assert wallets[p] >= 0  # nobody loses more than they carried into the hand
            if carry and len(players) > 1:  # 烂锅: no ante, doubled 底注 and bets (000:91)
                dealt = MIRRORED.new_hand(
                    config, seats, SeededRng(f"c{k}-{length}".encode().rjust(16, b"\0"), "hand")
                )
                assert dealt["bets"] == [0] * len(players)
                assert state["base"] == base * 2 ** carry["level"]
            length += 1
            chains["alone"] += outcome.details["ended_by"] == "alone"
            carry = outcome.details["carry"]
            outstanding = carry["pot"] if carry else 0
            assert sum(wallets.values()) + sum(home.values()) + outstanding == total, (
                "coins lost in the chain"
            )
            if carry is None:
                break
            # The players of this hand, the folded ones too, may play the next; nobody else (000:91).
            assert set(carry["players"]) == set(players)
            chains["folded_back"] += "folded" in state["status"]
            eligible = carry["players"]
            dealer = players[outcome.details["next_first_seat"]]
            assert length < 60, "the chain never ends"
        chains["long"] += length >= 3
    assert chains["long"] >= 5 and chains["left"] >= 3 and chains["folded_back"] >= 3, chains
