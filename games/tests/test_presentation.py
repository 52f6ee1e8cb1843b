"""The presentation protocol: every deal a seed made, re-dealt by hand, and what a record shows.

Each game's deal is re-derived here the way a player holding the revealed seed
would, from the rules pages (docs/rules/): the deck in its documented order,
``SeededRng(seed, "hand")`` (a redeal's child stream), the shuffle, and the
game's dealing order. ``Presentation.deals`` must list exactly those cards.
A re-dealer also gets what the table showed everybody at the end (``shown``,
the spectators' view of the final state): where the dealing order follows a
choice the players made (二八杠 deals from its banker), that choice is public.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import games
from games.base import SeatSpec, SeededRng
from games.chexuan import rules as chexuan_rules
from games.doudizhu import rules as ddz_rules
from games.erbagang import rules as ebg_rules
from games.testing import random_playout
from games.tiandakeng import rules as tdk_rules
from games.tuitongzi import rules as ttz_rules

SEATED = [slug for slug, info in games.REGISTRY.items() if info.family == "seated"]
POKER_DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shcd"]


def _rng(seed: bytes, redeal: int = 0) -> SeededRng:
    rng = SeededRng(seed, "hand")
    return rng.child(f"redeal-{redeal}") if redeal else rng


def redeal_doudizhu(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """17 each in deck order, the last 3 are the 底牌 (docs/rules/doudizhu.md, "Deal")."""
    deck = list(ddz_rules.FULL_DECK)
    _rng(seed, redeal).shuffle(deck)
    return [deck[17 * i : 17 * (i + 1)] for i in range(3)], [("Bottom cards", deck[51:])]


def _dealer(rng: SeededRng, config: dict, players: int) -> int:
    first = config.get("first_seat")
    return rng.randbelow(players) if first is None else first


def redeal_zhajinhua(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The dealer is drawn first (if not given), then one card at a time from the dealer (002:29)."""
    rng = _rng(seed)
    dealer = _dealer(rng, config, players)
    deck = list(POKER_DECK)
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(3 * players):
        hands[(dealer + i) % players].append(deck[i])
    return hands, []


def redeal_texas(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """Two rounds of one card each from the seat after the dealer, then the five board cards."""
    rng = _rng(seed)
    dealer = _dealer(rng, config, players)
    deck = list(POKER_DECK)
    rng.shuffle(deck)
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, seat in enumerate(order * 2):
        hands[seat].append(deck[i])
    return hands, [("Board", deck[2 * players : 2 * players + 5])]


def redeal_erbagang(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The 40 tiles shuffled, then the die; two tiles each from the seat the die names, counted from the banker."""
    rng = _rng(seed)
    deck = list(ebg_rules.TILES)
    rng.shuffle(deck)
    die = rng.randbelow(6) + 1
    first = (shown["banker"] + die - 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players):
        hands[(first + i) % players] = deck[2 * i : 2 * i + 2]
    return hands, []


def redeal_tuitongzi(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The wheel (1-9; a number past the last seat passes on to seat 1), then the 40 tiles, two each from there."""
    rng = _rng(seed)
    wheel = rng.randbelow(9) + 1
    start = wheel - 1 if wheel <= players else 0
    deck = list(ttz_rules.TILES)
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players):
        hands[(start + i) % players] = deck[2 * i : 2 * i + 2]
    return hands, []


def _redeal_mahjong(seed: bytes, config: dict, honours: bool) -> tuple[list, list]:
    """The wall (four of each tile, 万 筒 条 then the honours) shuffled, thirteen each in seat
    order; 推倒胡 flips the next tile (its 鬼牌 indicator, dealt to nobody)."""
    tiles = [f"{n}{suit}" for suit in "mps" for n in range(1, 10) for _ in range(4)]
    tiles += [f"{n}z" for n in range(1, 8) for _ in range(4)] if honours else []
    _rng(seed).shuffle(tiles)
    hands = [tiles[13 * s : 13 * s + 13] for s in range(4)]
    return hands, [("Flipped tile", [tiles[52]])] if honours else []


def redeal_xuezhan(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    return _redeal_mahjong(seed, config, honours=False)


def redeal_tuidaohu(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    return _redeal_mahjong(seed, config, honours=True)


def redeal_chexuan(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The dealer is drawn first (if not given), then the 32 cards in docs/rules/chexuan.md's
    order are shuffled and dealt one at a time from the dealer, four each."""
    rng = _rng(seed)
    dealer = _dealer(rng, config, players)
    deck = list(chexuan_rules.DECK)
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(4 * players):
        hands[(dealer + i) % players].append(deck[i])
    return hands, []


def redeal_niuniu(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """Five each in deck order from A♦ … K♠ shuffled (docs/rules/niuniu.md, "Cards are dealt")."""
    deck = [rank + suit for rank in "A23456789TJQK" for suit in "dchs"]
    _rng(seed).shuffle(deck)
    return [deck[5 * i : 5 * i + 5] for i in range(players)], []


def redeal_suoha(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The 28 cards 8-A in rank order (s h c d within a rank), shuffled; card k of seat i is deck[k·n + i]."""
    deck = [rank + suit for rank in "89TJQKA" for suit in "shcd"]
    _rng(seed).shuffle(deck)
    return [[deck[k * players + i] for k in range(5)] for i in range(players)], []


def redeal_shisanshui(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """13 each in deck order: seat i the cards 13i to 13i + 12 (docs/rules/shisanshui.md, "Deal")."""
    deck = list(POKER_DECK)
    _rng(seed).shuffle(deck)
    return [deck[13 * i : 13 * (i + 1)] for i in range(players)], []


def redeal_shengji(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The first seat is drawn first in a first hand, then two decks (each suit 2…A, then 小王 大王) are
    shuffled and dealt one card at a time from it, 25 each; the last 8 are the 底牌 (004:2)."""
    rng = _rng(seed)
    start = _dealer(rng, config, players)
    deck = [rank + suit for suit in "shcd" for rank in "23456789TJQKA"] + ["XJ", "DJ"]
    deck = deck * 2
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(25 * players):
        hands[(start + i % players) % players].append(deck[i])
    return hands, [("Bottom cards", deck[25 * players :])]


def redeal_tiandakeng(seed: bytes, config: dict, players: int, redeal: int, shown: dict) -> tuple[list, list]:
    """The dealer drawn (if not given), the variant's deck shuffled, one card at a time from the dealer:
    two down then one up each; then each round one up card to every seat still in (how many a seat
    holds at the end says until when), the last card shared when the deck runs short (借牌, 000:93)."""
    rng = _rng(seed)
    dealer = _dealer(rng, config, players)
    deck = tdk_rules.deck(config.get("variant", "jiuzhou"))
    rng.shuffle(deck)
    order = [(dealer + k) % players for k in range(players)]
    hands: list[list[str]] = [[] for _ in range(players)]
    for k in range(3 * players):
        hands[order[k % players]].append(deck[k])
    rest, shared = deck[3 * players :], []
    for number in range(2, 1 + max(len(up) for up in shown["up"])):
        takers = [s for s in order if len(shown["up"][s]) >= number]
        own = takers if len(rest) >= len(takers) else takers[: len(rest) - 1]
        for s in own:
            hands[s].append(rest.pop(0))
        if takers[len(own) :]:
            shared.append(rest.pop(0))
    return hands, [("Shared cards", shared)] if shared else []


REDEAL = {
    "shengji": redeal_shengji,
    "doudizhu": redeal_doudizhu,
    "zhajinhua": redeal_zhajinhua,
    "texas": redeal_texas,
    "erbagang": redeal_erbagang,
    "tuitongzi": redeal_tuitongzi,
    "chexuan": redeal_chexuan,
    "niuniu": redeal_niuniu,
    "tongbi_niuniu": redeal_niuniu,
    "suoha": redeal_suoha,
    "shisanshui": redeal_shisanshui,
    "tiandakeng": redeal_tiandakeng,
    "xuezhan": redeal_xuezhan,
    "tuidaohu": redeal_tuidaohu,
}
CONFIGS = {
    "shengji": [{"base_stake": 2}, {"base_stake": 10, "first_seat": 1, "levels": ["A", "9"]}],
    "doudizhu": [{"variant": variant, "base_stake": 1} for variant in ("classic", "yifa", "jiabei")],
    "zhajinhua": [{"base_stake": 1}, {"base_stake": 2, "first_seat": 1}],
    "texas": [{"base_stake": 1}, {"base_stake": 5, "first_seat": 1}],
    "erbagang": [{"base_stake": 1}, {"base_stake": 2}],
    "tuitongzi": [{"base_stake": 1}, {"base_stake": 5}],
    "chexuan": [{"base_stake": 1}, {"base_stake": 2, "first_seat": 1}],
    "niuniu": [{"base_stake": 1}, {"base_stake": 10, "grab_multiples": [1, 2]}],
    "tongbi_niuniu": [{"base_stake": 1}, {"base_stake": 10, "multiplier_table": "niuniu"}],
    # 港式五张 seats up to five; 易发 (four) deals the same way.
    "suoha": [{"variant": "hk", "base_stake": 1}, {"variant": "hk", "base_stake": 2, "ante": 2}],
    "shisanshui": [{"base_stake": 1}, {"base_stake": 5, "suggestions": 2}],
    "tiandakeng": [
        {"variant": "jiuzhou", "base_stake": 1},
        {"variant": "dongbei", "base_stake": 2, "first_seat": 1},
    ],
    "xuezhan": [{"base_stake": 1}, {"base_stake": 5, "fan_table": "003", "pair_cap_units": 24}],
    "tuidaohu": [{"base_stake": 1}, {"base_stake": 5, "first_seat": 2}],
}
# How many copies of one piece a deal may hold: mahjong tiles come four of a kind.
COPIES = {"erbagang": 4, "tuitongzi": 4, "shengji": 2, "xuezhan": 4, "tuidaohu": 4}


# How many deals a finished hand's seed made, read from the engine's own state (not the
# presentation's): 斗地主 deals again each time everybody passes; the others deal once.
DEALS_MADE = {"doudizhu": lambda state: state["redeals"] + 1}
# 斗地主 and 十三水 sort each hand (and 斗地主 the 底牌) as they are dealt, so the deal order is not
# kept: they compare as sets.
SORTED_AT_DEAL = {"doudizhu", "shisanshui"}


def test_every_seated_game_has_a_presentation_and_a_hand_redealer_here():
    assert SEATED and set(SEATED) == set(REDEAL)
    for slug in SEATED:
        assert games.REGISTRY[slug].presentation is not None, slug


def _seats(info, n: int) -> list[SeatSpec]:
    return [SeatSpec(player_id=100 + i, coins=500) for i in range(n)]


def _check_deals(slug: str, state: dict, seed: bytes, config: dict, players: int) -> int:
    """Compare every deal the presentation lists, in order, with the seed re-dealt here; return how many."""
    info = games.REGISTRY[slug]
    deals = info.presentation.deals(state)
    shown = info.engine.view(state, None)
    assert len(deals) == DEALS_MADE.get(slug, lambda _state: 1)(state), (slug, "deals listed")
    for number, deal in enumerate(deals):
        hands, shared = REDEAL[slug](seed, config, players, number, shown)
        listed = [(group.label, group.cards) for group in deal.shared]
        if slug in SORTED_AT_DEAL:
            assert [sorted(hand) for hand in deal.hands] == [sorted(hand) for hand in hands], (slug, number)
            assert [(label, sorted(cards)) for label, cards in listed] == [
                (label, sorted(cards)) for label, cards in shared
            ], (slug, number)
        else:  # each seat's cards, and the cards dealt to nobody, in the order dealt
            assert deal.hands == hands and listed == shared, (slug, number)
        dealt = [card for hand in deal.hands for card in hand] + [c for g in deal.shared for c in g.cards]
        assert max(Counter(dealt).values()) <= COPIES.get(slug, 1), "a card dealt twice"
        # Only a deal that was thrown in says why; the one played last says nothing.
        assert bool(deal.note) == (number < len(deals) - 1)
    json.dumps([deal.hands for deal in deals])  # plain data
    return len(deals)


@pytest.mark.parametrize("slug", SEATED)
def test_deals_list_the_cards_the_seed_deals_in_random_hands(slug):
    info = games.REGISTRY[slug]
    choices = random.Random(f"deals-{slug}")
    counts = []
    for number in range(160):  # enough that some 斗地主 hands are dealt again
        config = CONFIGS[slug][number % len(CONFIGS[slug])]
        players = choices.randint(info.min_seats, min(info.max_seats, 6))
        seed = f"present-{slug}-{number:06d}".encode()
        final, _steps = random_playout(info.engine, dict(config), _seats(info, players), seed, choices)
        counts.append(_check_deals(slug, final, seed, config, players))
    if slug in DEALS_MADE:
        assert max(counts) > 1, "no random hand was dealt again: the redeals went unchecked"


def test_a_doudizhu_hand_redealt_after_everyone_passed_lists_each_deal_in_order():
    info = games.REGISTRY["doudizhu"]
    engine = info.engine
    seed = b"present-redeal-0000001"
    config = {"variant": "classic", "base_stake": 1, "redeal_limit": 3}
    state = engine.new_hand(dict(config), _seats(info, 3), SeededRng(seed, "hand"))
    first_hands = [list(hand) for hand in state["hands"]]
    for _round in range(2):  # everybody passes twice: two redeals
        for _seat in range(3):
            state = engine.apply(state, state["turn"], {"type": "pass"})
    assert state["redeals"] == 2
    played_hands = [list(hand) for hand in state["hands"]]
    final, _steps = random_playout_from(engine, state, random.Random(7))

    deals = info.presentation.deals(final)

    assert len(deals) == 3
    assert deals[0].hands == first_hands
    assert deals[-1].hands == played_hands
    assert deals[0].note == deals[1].note == "Nobody bid, so the cards were dealt again."
    _check_deals("doudizhu", final, seed, config, 3)
    # The record shows the deal that was played: the 17 dealt cards and the 底牌 of the last deal.
    record = info.presentation.record(final, 0)
    assert [seat.cells[0] for seat in record.seats] == played_hands
    assert record.shared == deals[-1].shared


def random_playout_from(engine, state: dict, choices: random.Random) -> tuple[dict, int]:
    steps = 0
    while engine.outcome(state) is None:
        actors = engine.actors(state)
        if not actors:
            state = engine.on_deadline(state)
        else:
            seat = choices.choice(actors)
            state = engine.apply(state, seat, choices.choice(engine.legal_actions(state, seat)))
        steps += 1
    return state, steps


@pytest.mark.parametrize("slug", SEATED)
def test_a_record_shows_a_player_no_card_their_final_view_hides(slug):
    """The record of a hand: a row per seat, and no card that the rules keep from this player."""
    info = games.REGISTRY[slug]
    choices = random.Random(f"record-{slug}")
    for number in range(20):
        config = CONFIGS[slug][0]
        fixed = slug in ("doudizhu", "shengji")
        low = max(2, info.min_seats)  # mahjong is played by four: its least
        players = info.min_seats if fixed else choices.randint(low, min(5, info.max_seats))
        final, _ = random_playout(info.engine, dict(config), _seats(info, players), f"rec-{number}", choices)
        details = info.engine.outcome(final).details
        json.dumps([fact.value for fact in info.presentation.facts(json.loads(json.dumps(details)))])
        json.dumps(info.presentation.summary(final))
        for seat in [None, *range(players)]:
            record = info.presentation.record(final, seat)
            assert len(record.seats) == players
            assert all(len(row.cells) == len(record.columns) for row in record.seats)
            shown = {card for row in record.seats for cell in row.cells if cell for card in cell}
            view = json.dumps(info.engine.view(final, seat))
            # 斗地主 shows every hand once it is over, and 升级's every card was played face up or is the
            # 底牌 shown at the end (004:10); the others show what the view does.
            if not fixed:
                assert all(f'"{card}"' in view for card in shown), (slug, seat)


def test_doudizhu_facts_name_the_landlord_by_seat_and_say_how_the_hand_was_won():
    presentation = games.REGISTRY["doudizhu"].presentation
    facts = presentation.facts(
        {"multiple": 4, "bid": 3, "landlord": 2, "winner": "farmers", "spring": "spring"}
    )
    assert [(f.key, f.value) for f in facts] == [
        ("multiple", 4),
        ("bid", 3),
        ("landlord", 2),
        ("winner", "farmers"),
    ]
    assert facts[0].words == ("×{value}",)
    assert facts[2].seat and facts[3].words == ("Farmers", "Spring")
    assert presentation.facts({}) == []


def test_variant_labels_name_exactly_the_variants_the_engines_accept():
    from games.doudizhu.engine import VARIANTS

    assert set(games.REGISTRY["doudizhu"].variants) == set(VARIANTS)
    assert set(games.REGISTRY["baccarat"].variants) == {"commission", "super6"}
    for info in games.REGISTRY.values():
        assert info.terms and info.demo_tiers, info.slug
        for tier in info.demo_tiers:
            variant = (tier.get("options") or {}).get("variant")
            assert variant is None or variant in info.variants
