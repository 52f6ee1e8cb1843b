"""REST endpoints for the signed-in player's wallet (session auth, read-only)."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from wallets.selectors import wallet_balance, wallet_entries
from wallets.serializers import WalletEntrySerializer, WalletSerializer


class WalletView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="wallet_retrieve",
        summary="The signed-in player's balance",
        responses=WalletSerializer,
        tags=["wallet"],
    )
    def get(self, request: Request) -> Response:
        return Response(WalletSerializer({"balance": wallet_balance(user=request.user)}).data)


@extend_schema_view(
    get=extend_schema(
        operation_id="wallet_entries_list",
        summary="The signed-in player's ledger entries, newest first",
        tags=["wallet"],
    )
)
class WalletEntryListView(ListAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = WalletEntrySerializer

    def get_queryset(self):
        return wallet_entries(user=self.request.user)
