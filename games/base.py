"""The engine protocol every game follows, and the pieces all engines share.

Pure Python: nothing here (or anywhere in ``games/``) imports Django, reads a
clock, a setting or the ``random`` module's global functions. Randomness comes
in as a :class:`SeededRng`, built at the edge from a seed drawn with
``secrets``, so a hand replays exactly from its seed and its action log.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from games.presentation import Presentation

State = dict[str, Any]
Action = dict[str, Any]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the translation catalogue without translating it.

    ``games/`` imports no Django, yet its refusals reach players in their own
    language: the catalogue tools collect strings marked with this name, and
    the table runtime translates :attr:`IllegalAction.template` when it
    reports the refusal.
    """
    return message


class IllegalAction(Exception):
    """An action the rules refuse; ``str(exc)`` is a sentence a player can read.

    Pass the sentence as a template marked with :func:`gettext_noop` and its
    values as keywords (``IllegalAction(gettext_noop("You do not hold {card}."),
    card="Ks")``), so the runtime can translate the template before filling it in.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


@dataclass(frozen=True)
class SeatSpec:
    """One seat at the start of a hand: who sits there and the coins they carry (携带)."""

    player_id: int
    coins: int


@dataclass
class Outcome:
    """How a finished hand ends under the game's own rules, before the house's rake.

    ``deltas[i]`` is seat ``i``'s coins won (positive) or lost (negative), with
    limited liability (有限责任制) already applied; they sum to zero in a seated
    game. ``winners`` lists the seats that count a win toward player levels.
    ``details`` holds what a result screen shows (multiples, hand types, cards).
    """

    deltas: list[int]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)


# For i in 0..254: the mask of ``randbelow(i + 1)``'s draw, (1 << (i + 1).bit_length()) - 1.
_BYTE_MASKS = tuple((1 << (i + 1).bit_length()) - 1 for i in range(255))


class SeededRng:
    """A keyed, replayable random stream: HMAC-SHA256(seed, label || counter).

    The same seed and label always give the same numbers on every Python
    version, so a revealed seed lets anyone re-derive a hand's deck.
    """

    def __init__(self, seed: bytes, label: str = "") -> None:
        if not isinstance(seed, bytes) or len(seed) < 16:
            raise ValueError("seed must be at least 16 bytes")
        self.seed = seed
        self.label = label
        self._counter = 0
        self._buffer = b""

    def child(self, label: str) -> SeededRng:
        """Return an independent stream under the same seed (for a redeal, say)."""
        return SeededRng(self.seed, f"{self.label}/{label}")

    def _block(self) -> bytes:
        """Return the next 32 bytes of the stream: HMAC-SHA256(seed, "label:counter")."""
        message = f"{self.label}:{self._counter}".encode()
        self._counter += 1
        return hmac.digest(self.seed, message, hashlib.sha256)

    def _bytes(self, n: int) -> bytes:
        buffer = self._buffer
        while len(buffer) < n:
            buffer += self._block()
        self._buffer = buffer[n:]
        return buffer[:n]

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        bits = n.bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates).

        Draws exactly what ``j = self.randbelow(i + 1)`` would for i = len-1 … 1
        (so a revealed seed re-derives the same deck), inlined because an
        8-deck 百家乐 shoe makes 415 draws.
        """
        buffer, used = self._buffer, 0
        if len(items) <= 255:
            # Every draw is one byte: the same loop with the byte count and mask looked up. The
            # blocks every shuffle needs (a byte per draw) are taken first, so the buffer runs out
            # about once per shuffle, caught as an IndexError (free in this Python when not
            # raised) instead of tested before every draw.
            masks = _BYTE_MASKS
            while len(buffer) < len(items) - 1:  # every draw takes a byte: these are all needed
                buffer += self._block()
            for i in range(len(items) - 1, 0, -1):
                mask = masks[i]
                try:
                    value = buffer[used] & mask
                except IndexError:
                    buffer, used = self._block(), 0
                    value = buffer[0] & mask
                used += 1
                while value > i:
                    try:
                        value = buffer[used] & mask
                    except IndexError:
                        buffer, used = self._block(), 0
                        value = buffer[0] & mask
                    used += 1
                items[i], items[value] = items[value], items[i]
            self._buffer = buffer[used:]
            return
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            bits = n.bit_length()
            nbytes = (bits + 7) // 8
            mask = (1 << bits) - 1
            while True:
                if len(buffer) - used < nbytes:
                    buffer, used = buffer[used:] + self._block(), 0
                if nbytes == 1:
                    value = buffer[used] & mask
                elif nbytes == 2:
                    value = ((buffer[used] << 8) | buffer[used + 1]) & mask
                else:
                    value = int.from_bytes(buffer[used : used + nbytes], "big") & mask
                used += nbytes
                if value < n:
                    break
            items[i], items[value] = items[value], items[i]
        self._buffer = buffer[used:]

    def choice(self, items):
        return items[self.randbelow(len(items))]


def apply_rake(deltas: list[int], rake_bps: int) -> tuple[list[int], int]:
    """Take the house's service fee (抽水) from each winner's profit.

    The fee is ``floor(profit × rake_bps / 10000)``: rounded down, so it never
    exceeds the rate (a 3-coin win pays no fee at 5%); the winner receives
    ``profit − fee``. Losers pay in full. Returns the net deltas and the
    rake, and ``sum(net) + rake == sum(deltas)`` always holds.
    """
    if not 0 <= rake_bps <= 10000:
        raise ValueError("rake_bps must be between 0 and 10000")
    net = []
    rake = 0
    for delta in deltas:
        if delta > 0:
            fee = delta * rake_bps // 10000
            rake += fee
            net.append(delta - fee)
        else:
            net.append(delta)
    return net, rake


class Engine(Protocol):
    """The hand as a state machine. States are plain JSON-able dicts.

    This is everything the table runtime asks of a seated game: it reads no key
    of a state itself, and names no game. Deadlines, 托管 (auto-play), 提示 and
    the countdown of a simultaneous phase are all driven through these methods.
    """

    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State: ...

    def actors(self, state: State) -> list[int]:
        """List the seats that may act now: none once ``outcome`` is not None.

        Several seats in a simultaneous phase; none, too, while only the clock moves the
        hand on (``on_deadline``). A playout asks for the outcome only when nobody may act.
        """
        ...

    def shown_actors(self, state: State) -> list[int]:
        """List the seats every viewer is told may act now: ``actors``, or more of them.

        Each seat also learns whether it is an actor itself. A game whose actors are a
        secret (who may claim a mahjong discard) names every seat that could have been
        one, so the wait gives no hand away. ``games.testing`` checks it holds the actors.
        """
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """List every action ``seat`` may take now (none when it may not act).

        The list is new at every call, but the actions in it may be shared, read-only
        objects: an engine may list the same dict (and the same lists inside it) again for
        another state or another caller. Read them, compare them, pass them to ``apply``,
        store or send them as they are; copy one before changing it. Listing twice for the
        same state gives equal actions, and ``apply`` never changes the action it is given
        (what the new state keeps of it is a copy). ``games.testing`` checks all of this.
        """
        ...

    def out_of_turn_actions(self, state: State, seat: int) -> list[Action]:
        """List the actions ``seat`` may take while it is not among ``actors`` (usually none).

        炸金花's 看牌 is one: a seat may look at its cards whoever is on turn. Such an action
        never moves the hand on: after it ``actors``, ``phase`` and ``deadline_seconds`` are
        as before and every actor's ``legal_actions`` are unchanged, so the runtime keeps the
        actors' clock. ``apply`` takes each of them from that seat. A seat among ``actors``
        gets none here (its actions are ``legal_actions``). ``games.testing`` checks all of this.
        """
        ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def on_deadline(self, state: State) -> State:
        """Move the hand on when its clock runs out and no seat may act (or for every actor)."""
        ...

    def deadline_seconds(self, state: State) -> int | None:
        """The seconds the current actors have (None: no clock in this phase)."""
        ...

    def phase(self, state: State) -> str:
        """Name the phase the hand is in; a simultaneous countdown lasts while the phase does."""
        ...

    def auto_action(self, state: State, seat: int) -> Action:
        """The move 托管 (auto-play) and a timed-out turn make for ``seat``: a sensible legal one."""
        ...

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: the move suggested to ``seat`` now, or None when it has none to suggest."""
        ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def views(self, state: State, seats: list[int | None]) -> list[dict]:
        """``view`` for each of ``seats`` at once (equal to calling ``view`` for each).

        The views may share their public parts, which nobody changes.
        """
        ...

    def outcome(self, state: State) -> Outcome | None: ...


class SeatedEngine:
    """Defaults an engine may inherit for the parts of :class:`Engine` most games share."""

    def phase(self, state: State) -> str:
        return str(state.get("phase", ""))

    def views(self, state: State, seats: list[int | None]) -> list[dict]:
        return [self.view(state, seat) for seat in seats]

    def hint(self, state: State, seat: int) -> Action | None:
        return None

    def shown_actors(self, state: State) -> list[int]:
        """The actors themselves: who may act is no secret."""
        return self.actors(state)

    def out_of_turn_actions(self, state: State, seat: int) -> list[Action]:
        """No action out of turn: only the actors act."""
        return []

    def on_deadline(self, state: State) -> State:
        """Play ``auto_action`` for every seat whose time ran out."""
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state


class BankerEngine(Protocol):
    """A house-banked game (family "banker"): players bet on areas, the house deals coups.

    There are no seats and no turns. The runtime keeps a shoe (牌靴) state,
    opens a betting window on the areas :meth:`areas` lists, asks
    :meth:`validate_bet` about each bet, calls :meth:`deal` once betting
    closes, reveals ``result["steps"]`` one by one, and settles every bet with
    :meth:`payout`. States and results are plain JSON-able dicts; every method
    is pure (the shoe it is given is never changed).

    Optional: ``revealed(result, n)`` (what the first n steps show),
    ``reveal_pause(config, result)`` → ``{"after", "areas", "seconds"}`` or a list of them
    (咪牌: after ``after`` steps the top bettor of the most-backed of ``areas``, or of them
    all with ``"pooled": True``, may turn the next card, or the next ``"turns"`` steps at
    once, for ``seconds`` before the clock does), ``betting_windows(config, result)`` → ``[{"after", "areas"}]`` (the betting
    reopens on those areas once ``after`` steps are shown) and ``odds_table(config)``
    (each area's ``odds``, ``probability`` and house ``edge``, the page's rules panel).
    """

    def new_shoe(self, config: dict, rng: SeededRng) -> State:
        """Shuffle a fresh shoe: its cards, cut position, position, coups dealt and history."""
        ...

    def shoe_finished(self, shoe: State) -> bool:
        """Say whether no new round may start on ``shoe``."""
        ...

    def areas(self, config: dict, shoe: State) -> list[dict]:
        """List the next coup's betting areas in display order: ``{"area", "odds", "open"}``."""
        ...

    def deal(self, config: dict, shoe: State) -> tuple[dict, State]:
        """Deal the next coup; return ``(result, new_shoe)``, ``result["steps"]`` in dealing order."""
        ...

    def payout(self, config: dict, result: dict, area: str, stake: int) -> int:
        """Return one bet's net coins: won (+), lost (−stake) or returned (0)."""
        ...

    def roads(self, shoe: State) -> dict:
        """Return the shoe's roads (路单) for display."""
        ...

    def validate_bet(self, config: dict, shoe: State, area: str, amount: object) -> None:
        """Raise :class:`IllegalAction` unless ``amount`` on ``area`` is a bet the rules take now."""
        ...

    def bet_exposure(self, config: dict, area: str, stake: int) -> tuple[int, int]:
        """Return ``(most_lost, most_won)``: the bounds of one bet's net, both ≥ 0.

        ``-most_lost <= payout(...) <= most_won`` for every result. The runtime
        escrows ``most_lost`` when the bet is placed (a game where a bet can lose
        more than its stake, such as 百人三公's banker multiples, escrows more) and
        limits the round's bets so a player banker holds the sum of ``most_won``.
        """
        ...


class SoloEngine(Protocol):
    """A one-player game against the house (family "solo"): a line game's spins, say.

    No table, no seats, no rounds: each play is one request of one player and
    is settled at once. A play's randomness is provably fair: it comes only
    from the player's server seed (whose SHA-256 the player saw before),
    their client seed and the play's nonce, so anyone given the revealed seed
    can recompute it. ``config`` is the room tier's options with its
    ``base_stake``. Every method is pure; a play returns a JSON-able dict
    whose ``"win"`` is the gross coins paid back (0: the stake is lost).
    """

    def stakes(self, config: dict) -> list[int]:
        """Return the stakes a play may take in this room, smallest first."""
        ...

    def check_client_seed(self, client_seed: object) -> str:
        """Return ``client_seed`` if the game can draw with it, else raise :class:`IllegalAction`."""
        ...

    def spin(self, config: dict, server_seed: bytes, client_seed: str, nonce: int, stake: int) -> dict:
        """Play one spin of ``stake`` (one of :meth:`stakes`) from the seed pair and nonce."""
        ...

    def gamble_rules(self, config: dict) -> dict | None:
        """Return the double-up after a win, or None for a game without one:
        ``{"multiples": [...], "picks": [...], "max_wins": n, "seconds": s}``."""
        ...

    def gamble(
        self, config: dict, server_seed: bytes, client_seed: str, nonce: int, stake: int, pick: str
    ) -> dict:
        """Play one double-up of ``stake`` on ``pick`` (refused with :class:`IllegalAction`)."""
        ...

    def returns(self, config: dict, rake_bps: int) -> dict:
        """Return the published figures of each kind of play after the fee: ``{"spin": {...}, ...}``."""
        ...


def seed_digest(server_seed: bytes) -> str:
    """Return the SHA-256 (hex) of a solo game's server seed, shown before the seed is used."""
    return hashlib.sha256(server_seed).hexdigest()


@dataclass(frozen=True)
class GameInfo:
    """A game's entry in ``games.REGISTRY``: its names, seats, engine, and what the platform shows of it.

    ``variants`` maps each value a room tier may give ``options["variant"]`` to
    the words the lobby shows for it (a msgid). ``demo_tiers`` are the room
    tiers ``manage.py load_demo`` creates (keyword arguments of a ``RoomTier``;
    empty: the platform's default tiers for the family). ``terms`` are the
    game's own words (its names, roles, card sets) that the platform's code
    outside the game's page must never use: a test looks for them.
    ``presentation`` shows a seated game's finished hands (``games.presentation``).
    """

    slug: str
    name_zh: str
    name_en: str
    family: str  # "seated" (an Engine), "banker" (a BankerEngine) or "solo" (a SoloEngine)
    min_seats: int
    max_seats: int
    engine: Engine | BankerEngine | SoloEngine
    default_options: dict = field(default_factory=dict)
    variants: dict[str, str] = field(default_factory=dict)
    demo_tiers: tuple[dict[str, Any], ...] = ()
    terms: tuple[str, ...] = ()
    presentation: Presentation | None = None
