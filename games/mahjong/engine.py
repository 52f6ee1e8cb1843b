"""One wall/draw/discard/claim machine for 血战到底 and 广东推倒胡.

Phases: ``exchange`` (换三张, 血战, all seats at once), ``void`` (定缺, 血战, all at
once), ``turn`` (the seat on turn has drawn: it discards, declares a kong or wins),
``claim`` (the window after a discard or a 补杠: every seat that may claim acts at
once; 胡 beats 杠/碰, and every seat that says 胡 wins: 一炮多响), ``finished``.

Payments are made when they happen (kongs at once, each win at once), through
``scoring.pay`` so nobody ever moves more than they carried. Readings where the
seeds are silent are listed in docs/rules/xuezhan.md and docs/rules/tuidaohu.md.
"""

from __future__ import annotations

import itertools
import marshal
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.mahjong import scoring
from games.mahjong.fan import fan
from games.mahjong.tiles import INDEX, Meld, is_win, next_tile, waits, wall

SEATS = 4
SUIT_ORDER = "mpsz"


def _key(tile: str) -> int:
    return INDEX[tile]


def _sorted(tiles: list[str]) -> list[str]:
    return sorted(tiles, key=_key)


class MahjongEngine(SeatedEngine):
    """The shared machine; ``variant`` is "xuezhan" (108 tiles, 血战) or "tuidaohu" (136 tiles, 鬼牌)."""

    def __init__(self, variant: str, defaults: dict[str, Any]) -> None:
        self.variant = variant
        self.defaults = defaults

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**self.defaults, **config}
        if len(seats) != SEATS:
            raise ValueError("mahjong is played by four")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        xuezhan = self.variant == "xuezhan"
        tiles = wall(honors=not xuezhan)
        rng.shuffle(tiles)
        dealer = cfg.get("first_seat")
        dealer = rng.randbelow(SEATS) if dealer is None else int(dealer)
        hands = [tiles[13 * s : 13 * s + 13] for s in range(SEATS)]
        rest = tiles[52:]
        table = "tuidaohu" if not xuezhan else f"xuezhan_{cfg['fan_table']}"
        state: State = {
            "game": self.variant,
            "table": table,
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "base": base,
            "dealer": dealer,
            "turn_seconds": int(cfg["turn_seconds"]),
            "claim_seconds": int(cfg["claim_seconds"]),
            "pass_blocks_win": bool(cfg.get("pass_blocks_win")),
            "refund_kongs": bool(cfg.get("refund_kongs_not_ready")),
            "feeder_pays": bool(cfg.get("kong_feeder_pays")),
            # 003:9: nobody collects more than this many 底分 from any one player in a hand (None: no cap).
            "pair_cap": None if cfg.get("pair_cap_units") is None else int(cfg["pair_cap_units"]) * base,
            "collected": [[0] * SEATS for _ in range(SEATS)],
            "phase": "turn",
            "turn": dealer,
            "drawn": None,
            "melds": [[] for _ in range(SEATS)],
            "discards": [[] for _ in range(SEATS)],
            "voids": [None] * SEATS,
            "won": [],
            "deltas": [0] * SEATS,
            "payments": [],
            "claim": None,
            "wild": None,
            "indicator": None,
            "after_kong": False,  # the seat on turn drew a kong's replacement tile
            "last_kong": None,  # {"seat", "income", "feeder"}: 呼叫转移 until that seat's discard is settled
            "fresh": True,  # no claim or kong yet: 天胡 / 地胡 possible
            "discarded": [0] * SEATS,
            "blocked": [],  # seats that passed a 胡 on a discard (过水), until they draw
            "kong_income": [[] for _ in range(SEATS)],
            "result": None,
            "_hands": hands,
            "_dealt": [list(h) for h in hands],
            "_wall": rest,
            "_picks": [None] * SEATS,
            "_direction": 1 + rng.randbelow(3),  # 换三张: 1 下家, 2 对家, 3 上家 (001:671, 001:707)
            "exchange": None,
        }
        if xuezhan:
            state["phase"] = "exchange" if cfg.get("exchange", True) else "void"
            state["turn"] = None
        else:
            state["indicator"] = rest.pop(0)  # 001:299: the tile flipped at the dealer's side
            state["wild"] = next_tile(state["indicator"])
            self._draw(state, dealer)
        return state

    # -- helpers -----------------------------------------------------------
    def _in(self, state: State) -> list[int]:
        """Seats still playing (血战: not yet won)."""
        return [s for s in range(SEATS) if s not in state["won"]]

    def _melds(self, state: State, seat: int) -> list[Meld]:
        return [Meld(m["kind"], m["tile"], m["concealed"]) for m in state["melds"][seat]]

    def _suits_ok(self, state: State, seat: int, tiles: list[str]) -> bool:
        """血战: a hand wins only lacking its 定缺 suit (001:670)."""
        void = state["voids"][seat]
        if void is None:
            return True
        return all(t[1] != void for t in tiles) and all(m["tile"][1] != void for m in state["melds"][seat])

    def _context(
        self, state: State, seat: int, self_drawn: bool, robbed: bool = False, kong_discard: bool = False
    ) -> dict:
        fresh = state["fresh"] and state["discarded"][seat] == 0
        return {
            "self_drawn": self_drawn,
            "kong_draw": self_drawn and state["after_kong"],
            "kong_discard": kong_discard,
            "robbed_kong": robbed,
            "last_tile": self_drawn and not state["_wall"],
            "heavenly": self_drawn and fresh and seat == state["dealer"],
            "earthly": self_drawn and fresh and seat != state["dealer"],
            "wild": state["wild"],
        }

    def _score(self, state: State, seat: int, hand: list[str], tile: str, ctx: dict):
        """The fan of ``seat`` winning on ``tile`` (None: no win, or a win these rules refuse)."""
        if not self._suits_ok(state, seat, [*hand, tile]):
            return None
        melds = self._melds(state, seat)
        if not is_win([*hand, tile], melds, state["wild"], orphans=state["table"] == "tuidaohu"):
            return None
        result = fan(hand, melds, tile, ctx, state["table"])
        if result is None:
            return None
        # 001:298, 001:308: 鸡胡 wins only by 自摸 or 抢杠胡.
        if state["table"] == "tuidaohu" and result.plain and not (ctx["self_drawn"] or ctx["robbed_kong"]):
            return None
        return result

    def _draw(self, state: State, seat: int, replacement: bool = False) -> None:
        if not state["_wall"]:
            self._drawn_end(state)
            return
        tile = state["_wall"].pop() if replacement else state["_wall"].pop(0)
        state["_hands"][seat].append(tile)
        state["drawn"] = tile
        state["turn"] = seat
        state["phase"] = "turn"
        state["after_kong"] = replacement
        if seat in state["blocked"]:
            state["blocked"].remove(seat)

    def _next(self, state: State, seat: int) -> int | None:
        for k in range(1, SEATS + 1):
            s = (seat + k) % SEATS
            if s not in state["won"]:
                return s
        return None

    def _record(self, state: State, kind: str, seat: int, demands: list, **extra: Any) -> int:
        cap, collected = state["pair_cap"], state["collected"]
        if cap is not None and kind not in ("refund", "transfer"):
            demands = [(p, q, min(a, max(cap - collected[q][p], 0))) for p, q, a in demands]
        paid = scoring.pay(state["deltas"], state["coins"], demands)
        for p, q, a in paid:
            collected[q][p] += a
        state["payments"].append({"kind": kind, "seat": seat, "paid": [list(p) for p in paid], **extra})
        return sum(a for _, q, a in paid if q == seat)

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase in ("exchange", "void"):
            key = "_picks" if phase == "exchange" else "voids"
            return [s for s in range(SEATS) if state[key][s] is None]
        if phase == "turn":
            return [state["turn"]]
        if phase == "claim":
            answers = state["claim"]["answers"]
            return [int(s) for s in state["claim"]["options"] if s not in answers]
        return []

    def shown_actors(self, state: State) -> list[int]:
        """Who everyone is told may act: in a claim window every seat still in the hand but the
        one whose tile is claimed, so waiting on the window tells nobody who holds a pair of it."""
        if state["phase"] == "claim":
            return [s for s in self._in(state) if s != state["claim"]["from"]]
        return self.actors(state)

    def deadline_seconds(self, state: State) -> int | None:
        if state["phase"] == "finished":
            return None
        return state["claim_seconds"] if state["phase"] == "claim" else state["turn_seconds"]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        hand = state["_hands"][seat]
        if phase == "exchange":
            out = []
            for suit in "mps":
                own = _sorted([t for t in hand if t[1] == suit])
                seen = set()
                for combo in itertools.combinations(own, 3):
                    if combo not in seen:
                        seen.add(combo)
                        out.append({"type": "exchange", "tiles": list(combo)})
            return out
        if phase == "void":
            return [{"type": "void", "suit": s} for s in "mps"]
        if phase == "claim":
            return [{"type": t} for t in state["claim"]["options"][str(seat)]]
        return self._turn_actions(state, seat)

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        out: list[Action] = [{"type": "win"}] if self._can_self_win(state, seat) else []
        out.extend({"type": "kong", "tile": t} for t in self._kong_tiles(state, seat))
        wild = state["wild"]
        out.extend(
            {"type": "discard", "tile": t} for t in dict.fromkeys(_sorted(state["_hands"][seat])) if t != wild
        )
        return out

    def _can_self_win(self, state: State, seat: int) -> bool:
        drawn = state["drawn"]
        if drawn is None or seat in state["blocked"]:
            return False
        rest = list(state["_hands"][seat])
        rest.remove(drawn)
        return self._score(state, seat, rest, drawn, self._context(state, seat, True)) is not None

    def _kong_tiles(self, state: State, seat: int) -> list[str]:
        """The tiles ``seat`` may declare a kong of now: four in hand (暗杠) or a pung's fourth (补杠)."""
        if not state["_wall"]:
            return []
        hand = state["_hands"][seat]
        wild, void = state["wild"], state["voids"][seat]
        out = [t for t in dict.fromkeys(_sorted(hand)) if t != wild and t[1] != void and hand.count(t) == 4]
        out.extend(m["tile"] for m in state["melds"][seat] if m["kind"] == "pung" and m["tile"] in hand)
        return out

    def _allowed(self, state: State, seat: int, action: object) -> bool:
        """Say whether ``action`` is one ``legal_actions`` lists, by the same rules, without listing them all."""
        if not isinstance(action, dict) or seat not in self.actors(state):
            return False
        if state["phase"] != "turn":
            return action in self.legal_actions(state, seat)
        kind, tile = action.get("type"), action.get("tile")
        if kind == "win":
            return action == {"type": "win"} and self._can_self_win(state, seat)
        if set(action) != {"type", "tile"} or not isinstance(tile, str):
            return False
        if kind == "kong":
            return tile in self._kong_tiles(state, seat)
        # 001:299, 001:302: a wild is never discarded (a hand of wilds only that draws a wild must win).
        return kind == "discard" and tile in state["_hands"][seat] and tile != state["wild"]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if not self._allowed(state, seat, action):
            raise IllegalAction(self._refusal(state, seat, action))
        new = marshal.loads(marshal.dumps(state))  # plain data: a deep copy, many times faster
        kind = action["type"]
        if kind == "exchange":
            new["_picks"][seat] = list(action["tiles"])
            if all(p is not None for p in new["_picks"]):
                self._exchange(new)
        elif kind == "void":
            new["voids"][seat] = action["suit"]
            if all(v is not None for v in new["voids"]):
                self._draw(new, new["dealer"])
        elif new["phase"] == "claim":
            new["claim"]["answers"][str(seat)] = kind
            if kind == "pass" and "win" in new["claim"]["options"][str(seat)] and new["pass_blocks_win"]:
                new["blocked"].append(seat)
            if not self.actors(new):
                self._resolve(new)
        elif kind == "win":
            self._self_drawn_win(new, seat)
        elif kind == "kong":
            self._declare_kong(new, seat, action["tile"])
        else:
            self._discard(new, seat, action["tile"])
        return new

    def _refusal(self, state: State, seat: int, action: object) -> str:
        if state["phase"] == "finished":
            return gettext_noop("The hand is over.")
        if not isinstance(seat, int) or seat not in self.actors(state):
            return gettext_noop("It is not your turn.")
        return gettext_noop("That move is not allowed now.")

    def _exchange(self, state: State) -> None:
        """换三张: every seat gives its three to the seat ``direction`` places on (001:671, 001:707)."""
        d = state["_direction"]
        picks = state["_picks"]
        for s in range(SEATS):
            for t in picks[s]:
                state["_hands"][s].remove(t)
        for s in range(SEATS):
            state["_hands"][(s + d) % SEATS].extend(picks[s])
        state["exchange"] = {"direction": d}
        state["phase"] = "void"

    def _discard(self, state: State, seat: int, tile: str) -> None:
        state["_hands"][seat].remove(tile)
        state["discards"][seat].append(tile)
        state["discarded"][seat] += 1
        state["drawn"] = None
        kong_discard = (
            state["last_kong"] is not None and state["last_kong"]["seat"] == seat and state["after_kong"]
        )
        state["after_kong"] = False
        options: dict[str, list[str]] = {}
        for s in self._in(state):
            if s == seat:
                continue
            opts = []
            hand = state["_hands"][s]
            if s not in state["blocked"]:
                ctx = self._context(state, s, False, kong_discard=kong_discard)
                if self._score(state, s, hand, tile, ctx) is not None:
                    opts.append("win")
            if tile[1] != state["voids"][s]:
                n = hand.count(tile)
                if n == 3 and state["_wall"]:
                    opts.append("kong")
                # 001:301: no 碰 that would leave only wilds to discard.
                if n >= 2:
                    rest = list(hand)
                    rest.remove(tile)
                    rest.remove(tile)
                    if any(t != state["wild"] for t in rest):
                        opts.append("pung")
            if opts:
                options[str(s)] = [*opts, "pass"]
        if options:
            state["phase"] = "claim"
            state["turn"] = None
            state["claim"] = {
                "kind": "discard",
                "tile": tile,
                "from": seat,
                "options": options,
                "answers": {},
                "kong_discard": kong_discard,
            }
        else:
            state["last_kong"] = None
            self._draw(state, self._next(state, seat))

    def _declare_kong(self, state: State, seat: int, tile: str) -> None:
        hand = state["_hands"][seat]
        added = next((m for m in state["melds"][seat] if m["kind"] == "pung" and m["tile"] == tile), None)
        state["drawn"] = None
        state["fresh"] = False
        if added is None:
            for _ in range(4):
                hand.remove(tile)
            state["melds"][seat].append({"kind": "kong", "tile": tile, "concealed": True, "from": None})
            self._pay_kong(state, seat, "concealed", None)
            self._draw(state, seat, replacement=True)
            return
        hand.remove(tile)
        # 抢杠胡: the seats that win on the added tile may rob it first.
        options = {}
        for s in self._in(state):
            if s != seat and s not in state["blocked"]:
                ctx = self._context(state, s, False, robbed=True)
                if self._score(state, s, state["_hands"][s], tile, ctx) is not None:
                    options[str(s)] = ["win", "pass"]
        added["kind"] = "kong"
        if options:
            state["phase"] = "claim"
            state["turn"] = None
            state["claim"] = {
                "kind": "rob",
                "tile": tile,
                "from": seat,
                "options": options,
                "answers": {},
                "kong_discard": False,
            }
            return
        self._pay_kong(state, seat, "added", None)
        self._draw(state, seat, replacement=True)

    def _pay_kong(self, state: State, seat: int, kind: str, source: int | None) -> None:
        """刮风下雨 / 杠 payments, at once (001:673-675, 001:716-718, 001:295-297, 003:31-33)."""
        units = scoring.KONG_UNITS[self.variant][kind]
        amount = units * state["base"]
        payers = [source] if source is not None else [s for s in self._in(state) if s != seat]
        income = self._record(state, "kong", seat, [(p, seat, amount) for p in payers], kong=kind)
        entries = [[p, a] for p, q, a in state["payments"][-1]["paid"] if q == seat]
        state["kong_income"][seat].extend(entries)
        state["last_kong"] = {"seat": seat, "income": income, "feeder": source, "entries": len(entries)}

    def _resolve(self, state: State) -> None:
        claim = state["claim"]
        answers = {int(s): a for s, a in claim["answers"].items()}
        source, tile = claim["from"], claim["tile"]
        winners = [s for s in self._order(source) if answers.get(s) == "win"]
        state["claim"] = None
        if winners:
            if claim["kind"] == "discard":
                state["discards"][source].pop()
            else:  # the robbed kong stays a pung and scores nothing (001:322, 003:37)
                meld = next(m for m in state["melds"][source] if m["kind"] == "kong" and m["tile"] == tile)
                meld["kind"] = "pung"
            for s in winners:
                ctx = self._context(
                    state, s, False, robbed=claim["kind"] == "rob", kong_discard=claim["kong_discard"]
                )
                result = self._score(state, s, state["_hands"][s], tile, ctx)
                self._win(
                    state,
                    s,
                    tile,
                    result,
                    [source],
                    False,
                    robbed=claim["kind"] == "rob",
                    shared=len(winners),
                )
            if claim["kong_discard"] and state["last_kong"] and self.variant == "xuezhan":
                self._transfer(state, source, winners)
            state["last_kong"] = None
            if state["phase"] != "finished":
                self._after_win(state, winners[-1])
            return
        if claim["kind"] == "rob":
            self._pay_kong(state, source, "added", None)
            self._draw(state, source, replacement=True)
            return
        state["last_kong"] = None
        taker = next((s for s, a in answers.items() if a in ("kong", "pung")), None)
        if taker is None:
            self._draw(state, self._next(state, source))
            return
        state["discards"][source].pop()
        state["fresh"] = False
        hand = state["_hands"][taker]
        kind = answers[taker]
        for _ in range(3 if kind == "kong" else 2):
            hand.remove(tile)
        state["melds"][taker].append({"kind": kind, "tile": tile, "concealed": False, "from": source})
        if kind == "kong":
            self._pay_kong(state, taker, "exposed", source)
            self._draw(state, taker, replacement=True)
        else:
            state["phase"], state["turn"], state["drawn"], state["after_kong"] = "turn", taker, None, False

    def _order(self, source: int) -> list[int]:
        return [(source + k) % SEATS for k in range(1, SEATS)]

    def _transfer(self, state: State, source: int, winners: list[int]) -> None:
        """呼叫转移: a kong's winnings go to whoever wins on the konger's next discard (001:676, 001:719, 003:37)."""
        income = state["last_kong"]["income"]
        share = income // len(winners)
        if share:
            self._record(state, "transfer", source, [(source, w, share) for w in winners])
            # That kong's money has gone: 003:37's refund at a drawn end must not pay it back again.
            entries = state["last_kong"]["entries"]
            if entries:
                del state["kong_income"][source][-entries:]

    def _self_drawn_win(self, state: State, seat: int) -> None:
        hand = state["_hands"][seat]
        tile = state["drawn"]
        rest = list(hand)
        rest.remove(tile)
        result = self._score(state, seat, rest, tile, self._context(state, seat, True))
        payers = [s for s in self._in(state) if s != seat]
        feeder = (state["last_kong"] or {}).get("feeder")
        if state["feeder_pays"] and state["after_kong"] and feeder is not None and feeder in payers:
            # 003:40: 杠上花 on a kong of another's discard: its feeder pays the whole 自摸.
            payers = [feeder] * len(payers)
        self._win(state, seat, tile, result, payers, self_drawn=True)
        state["last_kong"] = None
        if state["phase"] != "finished":
            self._after_win(state, seat)

    def _win(
        self,
        state: State,
        seat: int,
        tile: str,
        result,
        payers: list[int],
        self_drawn: bool,
        robbed: bool = False,
        shared: int = 1,
    ) -> None:
        """Pay one win; ``shared`` counts the seats winning on the same tile (一炮多响)."""
        hand = state["_hands"][seat]
        if not self_drawn:
            hand.append(tile)
        demands = scoring.win_demands(seat, payers, state["base"], result.total)
        self._record(
            state,
            "win",
            seat,
            demands,
            tile=tile,
            fan=result.total,
            patterns=[list(p) for p in result.patterns],
            self_drawn=self_drawn,
            robbed=robbed,
            roots=result.roots,
            source=None if self_drawn else payers[0],
            shared=shared,
        )
        state["won"].append(seat)
        state["drawn"] = None

    def _after_win(self, state: State, last_winner: int) -> None:
        if self.variant == "tuidaohu" or len(state["won"]) >= 3:
            self._finish(state, "won")
            return
        self._draw(state, self._next(state, last_winner))

    # -- the end -----------------------------------------------------------
    def _drawn_end(self, state: State) -> None:
        """The wall is empty: 血战 settles 查花猪 and 查大叫 (001:722-725); 推倒胡 ends drawn."""
        if self.variant == "xuezhan" and len(state["won"]) < 3:
            self._check_players(state)
        self._finish(state, "drawn")

    def _check_players(self, state: State) -> None:
        left = self._in(state)
        pigs = [s for s in left if not self._suits_ok(state, s, state["_hands"][s])]
        fans: dict[int, int] = {}
        for s in left:
            if s in pigs:
                continue
            hand = state["_hands"][s]
            best = None
            for t in waits(hand, self._melds(state, s), honors=False):
                result = self._score(state, s, hand, t, self._context(state, s, False))
                if result is not None and (best is None or result.total > best):
                    best = result.total
            if best is not None:
                fans[s] = best
        idle = [s for s in left if s not in pigs and s not in fans]
        base = state["base"]
        if state["refund_kongs"]:
            # 003:37: a player without a ready hand at a drawn end gives back every kong's winnings.
            for s in [*idle, *pigs]:
                back = [(s, p, a) for p, a in state["kong_income"][s]]
                if back:
                    self._record(state, "refund", s, back)
        for pig in pigs:
            owed = {
                s: scoring.PIG_UNITS * base + (scoring.win_unit(base, fans[s]) if s in fans else 0)
                for s in left
                if s not in pigs
            }
            if owed:
                balance = state["coins"][pig] + state["deltas"][pig]
                claims = scoring.pig_claims(max(balance, 0), owed)
                self._record(state, "pig", pig, [(pig, s, a) for s, a in claims.items()])
        for s in idle:
            if fans:
                balance = state["coins"][s] + state["deltas"][s]
                claims = scoring.ready_claims(max(balance, 0), fans, base)
                self._record(state, "ready", s, [(s, r, a) for r, a in claims.items()])

    def _finish(self, state: State, ended_by: str) -> None:
        state["phase"] = "finished"
        state["turn"] = None
        state["claim"] = None
        state["drawn"] = None
        state["result"] = {
            "ended_by": ended_by,
            "hands": [_sorted(h) for h in state["_hands"]],
            "deltas": list(state["deltas"]),
        }

    # -- clocks and help ---------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action:
        """托管 and a timed-out seat: a claim window passes (as the issue says a timeout does); on its
        turn the seat wins a 自摸 when it can (a hand of wilds that drew a wild must), else throws a
        tile of its 定缺 suit first and else the tile it drew; the shortest suit for 换三张 and 定缺."""
        phase = state["phase"]
        if phase == "claim":
            return {"type": "pass"}
        actions = self.legal_actions(state, seat)
        if {"type": "win"} in actions:
            return {"type": "win"}
        hand = state["_hands"][seat]
        if phase == "void":
            return {"type": "void", "suit": min("mps", key=lambda s: (sum(t[1] == s for t in hand), s))}
        if phase == "exchange":
            suit = min(
                (s for s in "mps" if sum(t[1] == s for t in hand) >= 3),
                key=lambda s: sum(t[1] == s for t in hand),
            )
            return next(a for a in actions if a["tiles"][0][1] == suit)
        discards = [a for a in actions if a["type"] == "discard"]
        void = state["voids"][seat]
        for a in discards:
            if a["tile"][1] == void:
                return a
        drawn = state["drawn"]
        for a in discards:
            if a["tile"] == drawn:
                return a
        return discards[-1]

    def hint(self, state: State, seat: int) -> Action | None:
        return self.auto_action(state, seat) if seat in self.actors(state) else None

    # -- what each seat sees -----------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        finished = state["phase"] == "finished"
        melds = []
        for s in range(SEATS):
            shown = []
            for m in state["melds"][s]:
                hidden = m["concealed"] and s != seat and not finished
                shown.append({**m, "tile": None if hidden else m["tile"]})
            melds.append(shown)
        won_hands = [
            _sorted(state["_hands"][s]) if s in state["won"] or finished else None for s in range(SEATS)
        ]
        claim = state["claim"]
        view: dict[str, Any] = {
            "game": state["game"],
            "table": state["table"],
            "phase": state["phase"],
            "seat": seat,
            "players": state["players"],
            "coins": state["coins"],
            "base": state["base"],
            "dealer": state["dealer"],
            "turn": state["turn"],
            "wall_count": len(state["_wall"]),
            "wild": state["wild"],
            "indicator": state["indicator"],
            "hand_counts": [len(h) for h in state["_hands"]],
            "melds": melds,
            "discards": state["discards"],
            "won": state["won"],
            "shown_hands": won_hands,
            "deltas": state["deltas"],
            "payments": state["payments"],
            "claim": None
            if claim is None
            else {
                "kind": claim["kind"],
                "tile": claim["tile"],
                "from": claim["from"],
                # Not who may claim: that would tell which seats hold the tile (a seat sees its own
                # options in "actions").
            },
            "exchange_done": [p is not None for p in state["_picks"]],
            "exchange": state["exchange"],
            "voids": [
                v if (seat == s or all(x is not None for x in state["voids"])) else None
                for s, v in enumerate(state["voids"])
            ],
            "void_done": [v is not None for v in state["voids"]],
            "result": state["result"],
            "hand": None,
            "drawn": None,
            "picked": None,
            "received": None,
            "actions": [],
        }
        if seat is not None:
            view["hand"] = _sorted(state["_hands"][seat])
            view["drawn"] = state["drawn"] if state["turn"] == seat else None
            view["picked"] = state["_picks"][seat]
            if state["exchange"] is not None:
                view["received"] = state["_picks"][(seat - state["exchange"]["direction"]) % SEATS]
            view["actions"] = self.legal_actions(state, seat)
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "finished":
            return None
        winners = sorted({p["seat"] for p in state["payments"] if p["kind"] == "win"})
        return Outcome(
            deltas=list(state["deltas"]),
            winners=winners,
            details={
                "ended_by": state["result"]["ended_by"],
                "payments": state["payments"],
                "table": state["table"],
                "wild": state["wild"],
            },
        )
