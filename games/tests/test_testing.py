"""games.testing: the shared harness passes a sound toy engine and catches broken ones."""

import random

import pytest

from games.base import IllegalAction, Outcome, SeatSpec
from games.testing import InvariantError, check_engine_invariants, private_keys, random_playout, strings_in

SEATS = [SeatSpec(1, 10), SeatSpec(2, 10)]


class RaceToThree:
    """Two seats take turns adding 1 or 2; whoever reaches 3 wins 1 coin from the other."""

    def new_hand(self, config, seats, rng):
        return {"total": 0, "turn": rng.randbelow(2), "winner": None, "_seed": rng.seed.hex()}

    def actors(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.actors(state):
            return []
        return [{"type": "add", "n": n} for n in (1, 2) if state["total"] + n <= 3]

    def apply(self, state, seat, action):
        if seat not in self.actors(state):
            raise IllegalAction("It is not your turn.")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Add 1 or 2 without passing 3.")
        new = dict(state, total=state["total"] + action["n"], turn=1 - seat)
        if new["total"] == 3:
            new["winner"] = seat
        return new

    def on_deadline(self, state):
        return self.apply(state, state["turn"], {"type": "add", "n": 1})

    def deadline_seconds(self, state):
        return None if state["winner"] is not None else 10

    def view(self, state, seat):
        return {"total": state["total"], "turn": state["turn"]}

    def outcome(self, state):
        if state["winner"] is None:
            return None
        deltas = [1, -1] if state["winner"] == 0 else [-1, 1]
        return Outcome(deltas=deltas, winners=[state["winner"]])


class Mutating(RaceToThree):
    def apply(self, state, seat, action):
        new = super().apply(state, seat, action)
        state["total"] = -1
        return new


class MutatingHint(RaceToThree):
    def hint(self, state, seat):
        state["total"] += 0.5
        return None


class Leaky(RaceToThree):
    def view(self, state, seat):
        return {**super().view(state, seat), "_seed": state["_seed"]}


class Shared(RaceToThree):
    """Lists shared read-only actions (the same two dicts every time), as the protocol allows: sound."""

    def __init__(self):
        self.shared = ({"type": "add", "n": 1}, {"type": "add", "n": 2})

    def legal_actions(self, state, seat):
        if seat not in self.actors(state):
            return []
        return [a for a in self.shared if state["total"] + a["n"] <= 3]


class SharedChangedByApply(Shared):
    """Lists shared actions and changes the one it applies (a caller's later listing would see it)."""

    def apply(self, state, seat, action):
        new = super().apply(state, seat, action)
        action["by"] = seat
        return new


class Fickle(RaceToThree):
    """Lists its actions in a different order each time."""

    flip = False

    def legal_actions(self, state, seat):
        self.flip = not self.flip
        actions = super().legal_actions(state, seat)
        return actions[::-1] if self.flip else actions


class ActsAfterTheEnd(RaceToThree):
    """Still names an actor once the hand has an outcome."""

    def actors(self, state):
        return [state["turn"]]


class Lax(RaceToThree):
    def apply(self, state, seat, action):
        if action.get("type") != "add":
            return dict(state)
        return super().apply(state, seat, action)


class Cheering(RaceToThree):
    """The seat off turn may cheer (out of turn) once; it changes nobody's turn."""

    def new_hand(self, config, seats, rng):
        return {**super().new_hand(config, seats, rng), "cheers": [0, 0]}

    def out_of_turn_actions(self, state, seat):
        off_turn = state["winner"] is None and seat != state["turn"]
        return [{"type": "cheer"}] if off_turn and not state["cheers"][seat] else []

    def apply(self, state, seat, action):
        if action in self.out_of_turn_actions(state, seat):
            cheers = list(state["cheers"])
            cheers[seat] += 1
            return self._cheered(dict(state, cheers=cheers), seat)
        return super().apply(state, seat, action)

    def _cheered(self, state, seat):
        return state


class CheerTakesTheTurn(Cheering):
    def _cheered(self, state, seat):
        return dict(state, turn=seat)


class ActorCheers(Cheering):
    def out_of_turn_actions(self, state, seat):
        return [] if state["winner"] is not None else [{"type": "cheer"}]


def test_out_of_turn_actions_are_played_and_checked():
    cheered = 0
    for seed in range(30):
        state, _steps, _outcome = check_engine_invariants(Cheering(), {}, SEATS, seed, random.Random(seed))
        final, _plain = random_playout(Cheering(), {}, SEATS, seed, random.Random(seed))
        cheered += sum(state["cheers"]) + sum(final["cheers"])
    assert cheered > 0  # the playouts take actions out of turn
    with pytest.raises(InvariantError, match="out of turn moved the turn"):
        for seed in range(30):
            check_engine_invariants(CheerTakesTheTurn(), {}, SEATS, seed, random.Random(seed))
    with pytest.raises(InvariantError, match="may act, yet lists actions out of turn"):
        check_engine_invariants(ActorCheers(), {}, SEATS, 1, random.Random(1))


def test_sound_engine_passes():
    for seed in range(20):
        state, steps, outcome = check_engine_invariants(
            RaceToThree(), {}, SEATS, seed, random.Random(seed), deadline_rate=0.3
        )
        assert outcome.deltas in ([1, -1], [-1, 1]) and 2 <= steps <= 3
        final, plain_steps = random_playout(RaceToThree(), {}, SEATS, seed, random.Random(seed))
        assert final["total"] == 3 and plain_steps >= 2


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (Mutating(), "mutated its input"),
        (MutatingHint(), "reading the state .* mutated it"),
        (Leaky(), "private keys"),
        (Lax(), "was allowed the illegal action"),
        (SharedChangedByApply(), "changed the action"),
        (Fickle(), "actions again gives other actions"),
        (ActsAfterTheEnd(), "has an outcome, yet seats"),
    ],
)
def test_broken_engines_are_caught(engine, message):
    with pytest.raises(InvariantError, match=message):
        check_engine_invariants(engine, {}, SEATS, 1, random.Random(1))


def test_shared_read_only_actions_pass():
    engine = Shared()
    for seed in range(10):
        _state, _steps, outcome = check_engine_invariants(engine, {}, SEATS, seed, random.Random(seed))
        assert outcome.deltas in ([1, -1], [-1, 1])
    assert engine.shared == ({"type": "add", "n": 1}, {"type": "add", "n": 2})


def test_view_check_catches_a_leak():
    def no_totals(state, seat, view):
        if seat is None and view["total"]:
            raise InvariantError("a spectator sees the total")

    with pytest.raises(InvariantError, match="a spectator sees the total"):
        check_engine_invariants(RaceToThree(), {}, SEATS, 2, random.Random(2), view_check=no_totals)


def test_walkers():
    assert sorted(private_keys({"a": [{"_x": 1}], "_y": 2})) == ["_x", "_y"]
    assert strings_in({"hand": ["3s", "pass"], "k": ("DJ",)}, {"3s", "DJ", "4h"}) == {"3s", "DJ"}


def test_a_pot_carried_from_earlier_hands_may_exceed_the_winners_coins_and_nothing_else():
    from games.testing import check_outcome

    seats = [SeatSpec(1, 50), SeatSpec(2, 50)]
    # 烂锅-style: 300 carried in, collected by seat 0 on top of the 40 it won from seat 1.
    check_outcome(Outcome([340, -40], [0], {"from_carried_pot": [300, 0]}), seats, zero_sum=False)
    with pytest.raises(InvariantError, match="carried pot"):
        check_outcome(Outcome([340, -40], [0], {"from_carried_pot": [0, 0]}), seats, zero_sum=False)
    with pytest.raises(InvariantError, match="carried pot"):  # more than it won of this hand's seats
        check_outcome(Outcome([360, -60], [0], {"from_carried_pot": [300, 0]}), seats, zero_sum=False)
    with pytest.raises(InvariantError, match="carried pot"):  # a loser cannot collect it
        check_outcome(Outcome([40, -40], [0], {"from_carried_pot": [0, 10]}), seats, zero_sum=False)
