"""What the rooms tell the wallet about the coins their hands and rounds move (``wallets.sources``).

Named in the ``LEDGER_SOURCES`` setting: wallets asks, and never imports rooms.
"""

from collections.abc import Collection
from platform.accounts.names import localized

from django.db.models import BigIntegerField, Case, CharField, Expression, OuterRef, Q, Subquery, Sum, When
from django.db.models.functions import Cast, Substr
from django.urls import reverse

from rooms.models import Game, RoomTier
from rooms.rounds.models import Bet, Round
from rooms.selectors import ledger_reference_labels
from rooms.tables.models import Hand, Table
from rooms.tables.selectors import coins_in_play
from wallets.sources import CoinsAtTable, LedgerSource, ReferenceLabel, TierName

# The references the table runtime and the round runtime post with.
PREFIXES = {"hand": Hand, "round": Round}


def _number_after(prefix: str, reference: str) -> Cast:
    return Cast(Substr(OuterRef(reference), len(prefix) + 2), output_field=BigIntegerField())


class RoomsLedgerSource(LedgerSource):
    def reference_labels(self, references: Collection[str]) -> dict[str, ReferenceLabel]:
        ours = [ref for ref in references if ref.partition(":")[0] in {*PREFIXES, "play"}]
        if not ours:
            return {}
        return {
            reference: ReferenceLabel(label.text, label.url)
            for reference, label in ledger_reference_labels(references=ours).items()
        }

    def coins_at_table(self, *, user) -> list[CoinsAtTable]:
        if user is None or not user.is_authenticated:
            return []
        hands = coins_in_play(user=user)
        bets = list(
            Bet.objects.standing()
            .filter(user=user, round__status__in=[Round.Status.OPEN, Round.Status.DUE])
            .values("round_id", "round__table_id")
            .annotate(staked=Sum("held"))
            .order_by("round_id")
        )
        # A player banker's coins sit in the round's escrow too, as one more row of the round.
        banked = Round.objects.filter(
            banker=user, status__in=[Round.Status.OPEN, Round.Status.DUE], bank__gt=0
        )
        bets += [
            {"round_id": rnd["pk"], "round__table_id": rnd["table_id"], "staked": rnd["bank"]}
            for rnd in banked.values("pk", "table_id", "bank")
        ]
        labels = ledger_reference_labels(
            references=[f"hand:{row['hand'].pk}" for row in hands]
            + [f"round:{row['round_id']}" for row in bets]
        )
        tables = Table.objects.select_related("tier__game").in_bulk({row["round__table_id"] for row in bets})
        rows = [
            CoinsAtTable(
                kind=CoinsAtTable.Kind.HAND,
                coins=row["carried"],
                place=str(row["hand"].table.tier),
                url=reverse("tables:table", args=[row["table_id"]]),
                label=getattr(labels.get(f"hand:{row['hand'].pk}"), "text", ""),
            )
            for row in hands
        ]
        rows += [
            CoinsAtTable(
                kind=CoinsAtTable.Kind.BETS,
                coins=row["staked"],
                place=str(tables[row["round__table_id"]].tier),
                url=reverse("rounds:table", args=[row["round__table_id"]]),
                label=getattr(labels.get(f"round:{row['round_id']}"), "text", ""),
            )
            for row in bets
        ]
        return rows

    def game_names(self, slugs: Collection[str]) -> dict[str, str]:
        return dict(Game.objects.filter(slug__in=slugs).values_list("slug", "name_zh"))

    def tier_names(self, tier_ids: Collection[int]) -> dict[int, TierName]:
        rows = RoomTier.objects.filter(pk__in=tier_ids).values_list("pk", "game__slug", "name", "name_en")
        return {
            pk: TierName(game_slug=slug, name=localized(name, name_en)) for pk, slug, name, name_en in rows
        }

    def banked_game_names(self) -> list[str]:
        return list(
            Game.objects.filter(family__in=[Game.Family.BANKER, Game.Family.SOLO])
            .order_by("sort_order", "slug")
            .values_list("name_zh", flat=True)
        )

    def attribution(self, reference: str) -> tuple[Expression, Expression]:
        # The CASE lets only a reference that is a hand's or round's number reach the cast.
        def pick(field: str, output) -> Case:
            return Case(
                *(
                    When(
                        Q(**{f"{reference}__regex": rf"^{prefix}:[0-9]+$"}),
                        then=Subquery(
                            model.objects.filter(pk=_number_after(prefix, reference)).values(field)[:1]
                        ),
                    )
                    for prefix, model in PREFIXES.items()
                ),
                default=None,
                output_field=output,
            )

        return pick("game_slug", CharField()), pick("table__tier_id", BigIntegerField())
