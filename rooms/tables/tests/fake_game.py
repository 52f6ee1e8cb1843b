"""A tiny deterministic 2-seat game for runtime tests: race to five (抢五).

Players take turns adding 1 or 2 to a running total; whoever reaches 5 wins
the base stake from the other (limited to what the loser carried). Each seat
also holds a private number so tests can check that views stay private.
"""

from games.base import GameInfo, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng

SLUG = "racetofive"
TARGET = 5


class RaceToFive(SeatedEngine):
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> dict:
        first = config.get("first_seat")
        return {
            "total": 0,
            "turn": first if first is not None else rng.randbelow(len(seats)),
            "secrets": [rng.randbelow(1000) for _ in seats],
            "carried": [seat.coins for seat in seats],
            "stake": int(config["base_stake"]),
            "turn_seconds": int(config.get("turn_seconds", 30)),
            "winner": None,
            "broken": False,
            "target": int(config.get("target", TARGET)),
        }

    def actors(self, state: dict) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.actors(state):
            return []
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}, {"type": "break"}]

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        if seat not in self.actors(state):
            raise IllegalAction("It is not your turn.")
        new = dict(state)
        if action.get("type") == "break":
            new["broken"] = True
        elif action.get("type") == "add" and action.get("n") in (1, 2):
            new["total"] = state["total"] + action["n"]
            if new["total"] >= state["target"]:
                new["winner"] = seat
        else:
            raise IllegalAction("Add 1 or 2.")
        new["turn"] = (seat + 1) % len(state["carried"])
        return new

    def on_deadline(self, state: dict) -> dict:
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state

    def auto_action(self, state: dict, seat: int) -> dict:
        if state["broken"]:
            raise RuntimeError("this hand is broken")
        return {"type": "add", "n": 1}

    def hint(self, state: dict, seat: int) -> dict | None:
        if state["broken"]:
            raise RuntimeError("this hand is broken")
        return {"type": "add", "n": 2}

    def deadline_seconds(self, state: dict) -> int | None:
        return state["turn_seconds"]

    def view(self, state: dict, seat: int | None) -> dict:
        return {
            "phase": "finished" if state["winner"] is not None else "playing",
            "total": state["total"],
            "turn": None if state["winner"] is not None else state["turn"],
            "secret": state["secrets"][seat] if seat is not None else None,
            "winner": state["winner"],
        }

    def outcome(self, state: dict) -> Outcome | None:
        winner = state["winner"]
        if winner is None:
            return None
        loser = 1 - winner
        amount = min(state["stake"], state["carried"][loser], state["carried"][winner])
        deltas = [0, 0]
        deltas[winner], deltas[loser] = amount, -amount
        details = {"winner": f"seat {winner}", "multiple": 1, "next_first_seat": winner}
        return Outcome(deltas=deltas, winners=[winner], details=details)


GAME = GameInfo(
    slug=SLUG,
    name_zh="抢五",
    name_en="Race to five",
    family="seated",
    min_seats=2,
    max_seats=2,
    engine=RaceToFive(),
    default_options={"turn_seconds": 30},
)
