"""The REST API fuzzed against its own OpenAPI schema (drf-spectacular): no input makes it answer 5xx.

schemathesis reads /api/schema/ from the Django WSGI application in-process
(no network) and generates requests for every operation, valid and invalid,
sent anonymously, as a signed-in player with a finished hand, coins and
ledger entries (so the happy paths have data to serialise), and as a
superuser (who may read the finance reports).
"""

from __future__ import annotations

import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

# The table runtime's fixtures: no thinking delays, and players with coins.
from rooms.tables.tests.conftest import fast_tables, make_player  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES_PER_OPERATION = 12


@pytest.fixture
def api_schema(db):
    from django.core.wsgi import get_wsgi_application

    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def player_cookie(fast_tables, make_player):  # noqa: F811 - the fixtures imported above
    """A signed-in player's session cookie; the player has a settled 必下德州 hand, a wallet and its entries."""
    from rooms.tables.tests.helpers import sit_connected
    from rooms.tables.tests.test_abuse import game_tier
    from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

    alice = make_player(coins=5000)
    hand = play_hand_under_trustee(sit_connected(alice, game_tier("texas")), alice)
    assert hand.status == "settled"
    return signed_in(alice)


def signed_in(user) -> tuple[dict, dict]:
    """Return the cookies and headers of a browser signed in as ``user`` (its CSRF token too, for writes)."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    client.get("/wallet/")  # any page with a form sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    return {"sessionid": client.cookies["sessionid"].value, "csrftoken": token}, {"X-CSRFToken": token}


@pytest.fixture
def finance_cookie(db):
    """A superuser's session cookie: the finance reports answer them (players get 403)."""
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.create_superuser(username="fuzz-boss", password="pw-Secret-123", email="")
    return signed_in(boss)


def test_no_request_gets_a_server_error(api_schema, player_cookie, finance_cookie):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 5, [op.label for op in operations]
    tried: dict[str, int] = {}
    statuses: dict[tuple[str, str], set[int]] = {}
    identities = [("anonymous", ({}, {})), ("player", player_cookie), ("superuser", finance_cookie)]
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                deadline=None,
                derandomize=True,  # the same requests every run: a failure here is reproducible
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def call(case):
                for who, (cookies, headers) in identities:
                    response = case.call(cookies=cookies, headers={**(case.headers or {}), **headers})
                    tried[case.operation.label] = tried.get(case.operation.label, 0) + 1
                    statuses.setdefault((case.operation.label, who), set()).add(response.status_code)
                    assert response.status_code < 500, (
                        who,
                        case.method,
                        case.formatted_path,
                        case.query,
                        case.body if case.body is not None else None,
                        response.text[:500],
                    )

            try:
                call()
            except Unsatisfiable:
                # An operation with no parameters has no invalid input to generate.
                assert mode is GenerationMode.NEGATIVE, operation.label
    # Every operation was really exercised, both ways.
    assert all(count >= 4 for count in tried.values()), tried
    assert set(tried) == {op.label for op in operations}
    # The signed-in identities got past authentication on every operation at least once.
    for label in tried:
        for who in ("player", "superuser"):
            if not label.startswith("GET /api/finance/") or who == "superuser":
                assert statuses[(label, who)] - {401, 403}, (label, who, statuses[(label, who)])
