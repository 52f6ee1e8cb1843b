"""wallets knows no game: transactions carry their game and tier, and other apps name them."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings

from wallets import reports, sources
from wallets.errors import InvalidTransaction
from wallets.models import LedgerTransaction
from wallets.services import (
    Posting,
    house_account,
    ledger_post,
    ledger_post_many,
    ledger_reverse,
    wallet_for_user,
)
from wallets.sources import LedgerSource, TierName

D = dt.date
WALLETS = Path(settings.BASE_DIR) / "wallets"


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_wallets_app_imports_nothing_from_rooms_or_games():
    """The issue "One path through the table runtime": wallets/ imports nothing from rooms/ or games/.

    Its tests may build hands and tiers (they check the reports against the real catalogue);
    the app's own modules, migrations included, may not.
    """
    offending = {}
    for path in sorted(WALLETS.rglob("*.py")):
        if "tests" in path.relative_to(WALLETS).parts:
            continue
        found = {name for name in _imported_modules(path) if name.split(".")[0] in {"rooms", "games"}}
        if found:
            offending[str(path.relative_to(WALLETS))] = sorted(found)
    assert offending == {}


@pytest.fixture
def no_sources(monkeypatch):
    """The ledger alone, as if no app had named a source (no rooms)."""
    monkeypatch.setattr(sources, "sources", list)


@pytest.fixture
def catalogue(monkeypatch):
    """A made-up app that names one game and one tier, the only source named (instead of the rooms)."""

    class Catalogue(LedgerSource):
        def game_names(self, slugs):
            return {slug: "推筒子" for slug in slugs if slug == "tuitongzi"}

        def tier_names(self, tier_ids):
            return {pk: TierName("tuitongzi", "大众场") for pk in tier_ids if pk == 9001}

        def banked_game_names(self):
            return ["推筒子"]

    monkeypatch.setattr(sources, "sources", lambda: [Catalogue()])


def _rake(amount: int, *, key: str, **names) -> LedgerTransaction:
    return ledger_post(
        key=key,
        kind="settlement",
        # From the cashier, which may go below zero: no stake need fill escrow first.
        legs=[(house_account(code="cashier"), -amount), (house_account(code="rake"), amount)],
        reference=f"{key}:1",
        **names,
    )


@pytest.mark.django_db
def test_a_transaction_carries_the_game_and_tier_it_was_posted_for(player):
    wallet = wallet_for_user(user=player)
    ledger_post(key="g", kind="grant", legs=[(house_account(code="cashier"), -100), (wallet, 100)])
    txn = ledger_post(
        key="h:stake",
        kind="stake",
        legs=[(wallet, -60), (house_account(code="escrow"), 60)],
        reference="hand:1",
        game_slug="doudizhu",
        tier_id=3,
    )
    [batched] = ledger_post_many(
        postings=[
            Posting(
                key="r:bet",
                kind="bet",
                legs=[(wallet, -40), (house_account(code="escrow"), 40)],
                reference="round:1",
                game_slug="baccarat",
                tier_id=7,
            )
        ]
    )
    stored = {t.key: (t.game_slug, t.tier_id) for t in LedgerTransaction.objects.all()}
    assert stored == {"g": ("", None), "h:stake": ("doudizhu", 3), "r:bet": ("baccarat", 7)}
    assert (txn.game_slug, txn.tier_id, batched.game_slug, batched.tier_id) == ("doudizhu", 3, "baccarat", 7)
    # A retry with the same key replays the first posting, whatever it says of the game.
    again = ledger_post(
        key="h:stake",
        kind="stake",
        legs=[(wallet, -60), (house_account(code="escrow"), 60)],
        reference="hand:1",
    )
    assert again.pk == txn.pk and again.game_slug == "doudizhu"


@pytest.mark.django_db
def test_a_reversal_stays_with_the_game_and_tier_of_what_it_reverses(make_player):
    staff = make_player(is_staff=True)
    _rake(30, key="fee", game_slug="doudizhu", tier_id=4)
    # Escrow legs are never reversed; a rake correction between house accounts is.
    correction = ledger_post(
        key="corr",
        kind="adjustment",
        legs=[(house_account(code="rake"), -5), (house_account(code="cashier"), 5)],
        game_slug="doudizhu",
        tier_id=4,
    )
    reversal = ledger_reverse(transaction=correction, key="corr:undo", actor=staff, reason="typo")
    assert (reversal.game_slug, reversal.tier_id) == ("doudizhu", 4)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game_slug", "tier_id"), [(7, None), ("x" * 41, None), ("", 0), ("", -2), ("", True)]
)
def test_a_bad_game_or_tier_is_refused(game_slug, tier_id):
    with pytest.raises(InvalidTransaction, match="game|room tier"):
        _rake(1, key="bad", game_slug=game_slug, tier_id=tier_id)
    assert not LedgerTransaction.objects.exists()


@pytest.mark.django_db
def test_the_rake_report_groups_by_the_tier_a_transaction_carries(catalogue):
    """Not by looking up hands: the reference here names no hand the rooms know."""
    _rake(12, key="a", game_slug="tuitongzi", tier_id=9001)
    _rake(8, key="b", game_slug="tuitongzi", tier_id=9001)
    _rake(3, key="c")  # a staff correction: no game
    today = reports.site_today()
    report = reports.rake_income(start=today, end=today)
    assert [(r.game, r.tier, r.amount, r.count) for r in report.rows] == [
        ("推筒子", "大众场", 20, 2),
        ("unattributed", "unattributed", 3, 1),
    ]


@pytest.mark.django_db
def test_the_reports_work_on_the_ledger_alone(no_sources):
    """With no source named: tiers by their id, games by their slug, the bank by the reference's prefix."""
    _rake(12, key="a", game_slug="tuitongzi", tier_id=9001)
    ledger_post(
        key="bank",
        kind="payout",
        legs=[(house_account(code="cashier"), -50), (house_account(code="bank"), 50)],
        reference="round:5",
        game_slug="baccarat",
        tier_id=9002,
    )
    ledger_post(
        key="old",
        kind="bet",
        legs=[(house_account(code="cashier"), -20), (house_account(code="bank"), 20)],
        reference="zhajinhua:1",
    )
    today = reports.site_today()
    assert [(r.game, r.tier, r.amount) for r in reports.rake_income(start=today, end=today).rows] == [
        ("", "#9001", 12)
    ]
    assert [(r.game, r.amount) for r in reports.bank_result(start=today, end=today).rows] == [
        ("baccarat", 50),
        ("zhajinhua", 20),
    ]
    assert reports.banked_games() == []


@pytest.mark.django_db
def test_the_bank_report_names_games_through_the_named_sources(catalogue):
    ledger_post(
        key="bank",
        kind="payout",
        legs=[(house_account(code="cashier"), -50), (house_account(code="bank"), 50)],
        reference="round:5",
        game_slug="tuitongzi",
        tier_id=9001,
    )
    today = reports.site_today()
    assert [(r.game, r.amount) for r in reports.bank_result(start=today, end=today).rows] == [("推筒子", 50)]
    assert reports.banked_games() == ["推筒子"]
