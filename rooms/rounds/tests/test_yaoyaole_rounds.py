"""开心摇摇乐 on the round runtime: bets, payouts, 撤销 and 重复投 on the ledger, verifiable dice, the rules panel."""

import json
import re
from pathlib import Path

import pytest
from django.db.models import Sum
from django.urls import reverse

from games.base import SeededRng
from games.yaoyaole import rules
from rooms.rounds import services
from rooms.rounds.broadcast import public_state
from rooms.rounds.models import Round, Shoe
from rooms.rounds.tests.conftest import live_round, open_round, run_to
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check, wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "yaoyaole.md"


def make_tier(*, code="beginner", rake_bps=0, **options):
    from rooms.models import Game, RoomTier

    game, _ = Game.objects.get_or_create(
        slug="yaoyaole",
        defaults={
            "name_zh": "开心摇摇乐",
            "name_en": "Happy Dice",
            "family": "banker",
            "min_seats": 1,
            "max_seats": 1,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code=code,
        name="初级场",
        name_en="Beginner room",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=100,
        rake_bps=rake_bps,
        options=options,
    )


def stack_throw(rnd, red: list[int], blue: list[int]) -> None:
    """Make the round's coming throw ``red`` and ``blue`` (before it is dealt), so the test knows it."""
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    throws = list(shoe.state["throws"])
    throws[shoe.state["coups"]] = red + blue
    shoe.state = {**shoe.state, "throws": throws}
    shoe.save(update_fields=["state"])


def bet(table, user, area, amount):
    return services.round_bet(table_id=table.pk, user=user, area=area, amount=amount)


def escrow_of(rnd) -> int:
    rows = LedgerEntry.objects.filter(transaction__reference=f"round:{rnd.pk}", account__code="escrow")
    return rows.aggregate(s=Sum("amount"))["s"] or 0


def test_a_round_pays_every_area_as_the_seed_says_through_the_ledger(make_player):
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table, rnd = open_round(make_tier(), alice)
    bet(table, alice, "red", 100)  # red wins with 7 points: 1赔1.5 → +50
    bet(table, alice, "red_pair", 100)  # red 1 1 5 is a pair: 1赔2.3 → +130
    bet(table, alice, "tie", 100)  # −100
    bet(table, bob, "blue", 200)  # −200
    bet(table, bob, "blue_straight", 100)  # blue 2 1 3 is a straight: 1赔8 → +700
    stack_throw(rnd, [1, 1, 5], [2, 1, 3])
    run_to(rnd, "result")
    rnd.refresh_from_db()
    assert rnd.status == "settled"
    assert rnd.result["winner"] == "red" and rnd.result["sides"]["red"] == {"points": 7, "combo": "pair"}
    assert wallet_balance(user=alice) == 5000 + 50 + 130 - 100
    assert wallet_balance(user=bob) == 5000 - 200 + 700
    assert escrow_of(rnd) == 0
    house = Account.objects.get(code="bank").balance
    assert house == -(50 + 130 - 100) - (700 - 200)
    assert ledger_check() == []


def test_a_tie_returns_red_and_blue_and_pays_the_tie(make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(make_tier(), alice)
    bet(table, alice, "red", 100)
    bet(table, alice, "blue", 50)
    bet(table, alice, "tie", 10)
    stack_throw(rnd, [3, 3, 4], [6, 2, 2])  # 10 each
    run_to(rnd, "result")
    assert wallet_balance(user=alice) == 1000 + 70
    assert sorted(rnd.bets.values_list("area", "net")) == [("blue", 0), ("red", 0), ("tie", 70)]


def test_cancel_gives_the_coins_back_through_the_ledger_and_repeat_stakes_them_again(make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(make_tier(), alice)
    bet(table, alice, "blue", 100)
    bet(table, alice, "blue_triple", 10)
    services.round_cancel(table_id=table.pk, user=alice)  # 撤销
    assert wallet_balance(user=alice) == 1000
    cancel = LedgerTransaction.objects.get(kind=LedgerTransaction.Kind.CANCEL, reference=f"round:{rnd.pk}")
    assert sorted(cancel.entries.values_list("amount", flat=True)) == [-110, 110]
    bet(table, alice, "red", 100)
    bet(table, alice, "tie", 20)
    stack_throw(rnd, [6, 6, 5], [1, 1, 2])
    run_to(rnd, "over")
    assert wallet_balance(user=alice) == 1000 + 100 - 20
    nxt = live_round(table)
    services.round_repeat(
        table_id=table.pk, user=alice
    )  # 重复投: the last round's bets, not the cancelled ones
    assert dict(nxt.bets.values_list("area", "amount")) == {"red": 100, "tie": 20}
    assert wallet_balance(user=alice) == 1080 - 120
    assert ledger_check() == []


def test_every_throw_of_a_finished_shoe_comes_from_its_revealed_seed(make_player):
    """As a player would check it: re-derive each throw from the revealed seed (docs/rules/yaoyaole.md)."""
    alice = make_player(coins=1000)
    table, rnd = open_round(make_tier(coups_per_shoe=3), alice)
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    for _ in range(3):
        run_to(rnd, "over")
        rnd = live_round(table) or rnd
    shoe.refresh_from_db()
    assert shoe.finished_at is not None
    revealed = public_state(table)["last_shoe"]
    assert revealed["number"] == shoe.number
    seed = bytes.fromhex(revealed["seed"])
    for coup in Round.objects.filter(shoe=shoe).order_by("coup"):
        rng = SeededRng(seed, f"shoe/coup-{coup.coup}")
        dice = [rng.randbelow(6) + 1 for _ in range(6)]
        assert [coup.result["red"], coup.result["blue"]] == [dice[:3], dice[3:]]
        assert [step["card"] for step in coup.result["steps"]] == dice  # red's cup opened first


def _labels(html: str) -> dict:
    match = re.search(r'<script id="table-labels" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_rules_panel_shows_each_areas_documented_odds_chance_and_house_edge(
    client, make_player, language
):
    alice = make_player(coins=1000)
    table, _rnd = open_round(make_tier(), alice)
    client.force_login(alice)
    response = client.get(reverse("rounds:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    labels = _labels(html)
    doc = DOC.read_text(encoding="utf-8").split("<!-- odds-table", 1)[1].split("\n\n", 1)[0]
    for area in rules.AREAS:
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{area}` |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert labels[f"pays_{area}"] == cells[2]
        assert labels[f"win_{area}"] == cells[3]
        assert labels[f"back_{area}"] == cells[6]
        assert labels[f"edge_{area}"] == cells[7]
    assert 'id="odds-table"' in html and 'id="auto-repeat"' in html
    assert 'id="cancel-bets"' in html and 'id="repeat-bets"' in html
    if language == "en":
        assert "House edge" in html and labels["area_red_triple"] == "Red triple"
    else:
        assert "庄家优势" in html and labels["area_red_triple"] == "红豹子"
