"""Shapes of the wallet API's responses (read-only: coins move only through services)."""

from rest_framework import serializers

from wallets.models import LedgerEntry


class WalletSerializer(serializers.Serializer):
    balance = serializers.IntegerField(help_text="Coins in the signed-in player's wallet.")


class WalletEntrySerializer(serializers.ModelSerializer):
    transaction = serializers.IntegerField(source="transaction_id", read_only=True)
    kind = serializers.CharField(source="transaction.kind", read_only=True)
    kind_label = serializers.CharField(source="transaction.get_kind_display", read_only=True)
    reference = serializers.CharField(source="transaction.reference", read_only=True)
    created_at = serializers.DateTimeField(source="transaction.created_at", read_only=True)

    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "transaction",
            "amount",
            "balance_after",
            "kind",
            "kind_label",
            "reference",
            "created_at",
        ]
        read_only_fields = fields
