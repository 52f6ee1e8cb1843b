"""多财多福's engine for the solo runtime (games.base.SoloEngine): spins and double-ups as pure functions."""

from __future__ import annotations

from games.base import IllegalAction, gettext_noop
from games.duocaiduofu import rules

# 底分 steps of a room: its base stake × these ("+"/"−", seed line 271).
DEFAULT_OPTIONS = {"stake_steps": [1, 2, 5, 10]}


def _percent(value) -> str:
    return f"{float(value) * 100:.4f}"


class LineEngine:
    """Three reels, five lines; a win may be doubled on 童男/童女 (docs/rules/duocaiduofu.md)."""

    def stakes(self, config: dict) -> list[int]:
        steps = config.get("stake_steps", DEFAULT_OPTIONS["stake_steps"])
        base = config["base_stake"]
        if base % rules.STAKE_UNIT:
            raise ValueError(f"a base stake is a multiple of {rules.STAKE_UNIT}")
        return rules.stake_choices(base, steps)

    def check_client_seed(self, client_seed: object) -> str:
        return rules.check_client_seed(client_seed)

    def spin(self, config: dict, server_seed: bytes, client_seed: str, nonce: int, stake: int) -> dict:
        rules.check_stake(stake, self.stakes(config))
        stops = rules.spin_stops(server_seed, client_seed, nonce)
        lines = rules.line_wins(stops)
        multiple = sum(line["multiple"] for line in lines)
        return {
            "kind": "spin",
            "stake": stake,
            "stops": stops,
            "window": rules.window(stops),
            "lines": lines,
            "multiple": multiple,
            "win": stake * multiple,
        }

    def gamble_rules(self, config: dict) -> dict | None:
        return {
            "multiples": list(rules.GAMBLE_MULTIPLES),
            "picks": list(rules.PICKS),
            "max_wins": rules.GAMBLE_MAX_WINS,
            "seconds": rules.GAMBLE_SECONDS,
        }

    def gamble(
        self, config: dict, server_seed: bytes, client_seed: str, nonce: int, stake: int, pick: str
    ) -> dict:
        pick = rules.check_pick(pick)
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise IllegalAction(gettext_noop("Nothing to double."))
        card = rules.gamble_card(server_seed, client_seed, nonce)
        return {"kind": "gamble", "stake": stake, "pick": pick, "card": card,
                "win": rules.gamble_pays(pick, card, stake)}  # fmt: skip

    def returns(self, config: dict, rake_bps: int) -> dict:
        spin = rules.spin_return(rake_bps)
        gamble = rules.gamble_return(rake_bps)
        return {
            "pays": [{"symbol": symbol, "multiple": rules.PAYS[symbol]} for symbol in rules.SYMBOLS],
            "spin": {
                "return": _percent(spin),
                "exact": f"{spin.numerator}/{spin.denominator}",
                "hit_rate": _percent(rules.hit_rate()),
            },
            "gamble": {
                "return": _percent(gamble),
                "exact": f"{gamble.numerator}/{gamble.denominator}",
                "hit_rate": _percent(1 / len(rules.PICKS)),
            },
        }
