"""Writes for accounts: create a player with their sign-up coins, rename, record a browser, count hands."""

import json
from platform.accounts.grants import signup_grant_open, signup_limit_check
from platform.accounts.models import GameStats, User, UserDevice
from platform.accounts.validators import nickname_clean, nickname_fold, username_reserved_check

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _


def user_create(
    *, username: str, password: str, nickname: str = "", email: str = "", address: str | None = None
) -> User:
    """Create a player, their wallet and the first part of their sign-up grant, all or nothing.

    The username is checked by the model's own validators (ValidationError on a
    bad or taken one) and may not take the bots' prefix; password strength is the sign-up form's business, so that
    staff tools and the demo loader may set simple passwords. ``address`` (the
    sign-up page passes the visitor's, ``addresses.limit_address``) counts toward
    the per-address sign-up limit; staff tools pass none and are not limited.
    The rest of the grant is paid as the player plays (``grants.grant_progress``).
    """
    user_model = get_user_model()
    try:
        nickname = nickname_clean(nickname)
        nickname_available_check(nickname=nickname)
    except ValidationError as error:
        raise ValidationError({"nickname": error.messages}) from error
    user = user_model(
        username=user_model.normalize_username(username),
        email=user_model.objects.normalize_email(email),
        nickname=nickname,
        nickname_key=nickname_fold(nickname),
    )
    user.set_password(password)
    user.full_clean(exclude=["password"])
    try:
        username_reserved_check(user.username)
    except ValidationError as error:
        raise ValidationError({"username": error.messages}) from error
    # Not durable: the demo loader and tests create players inside their own transaction.
    with transaction.atomic():
        if address is not None:
            signup_limit_check(address=address)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError as error:  # the same username (or nickname) signed up a moment ago
            if user_model.objects.filter(username=user.username).exists():
                raise ValidationError(
                    {"username": user_model._meta.get_field("username").error_messages["unique"]}
                ) from error
            raise ValidationError({"nickname": [_nickname_taken().message]}) from error
        signup_grant_open(user=user, address=address)
    return user


def _nickname_taken() -> ValidationError:
    return ValidationError(
        _("Another player already uses this nickname (or one that reads the same)."), code="nickname_taken"
    )


def nickname_available_check(*, nickname: str, user: User | None = None) -> None:
    """Raise ValidationError if another account holds a nickname that folds like ``nickname``."""
    key = nickname_fold(nickname)
    if not key:
        return
    others = get_user_model().objects.filter(nickname_key=key)
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        raise _nickname_taken()


def user_nickname_change(*, user: User, nickname: str) -> User:
    """Change the name tables show for ``user``; raise ValidationError if it breaks the rules.

    The rules: ``nickname_clean``'s (length, characters, not a bot's name), and no
    other account's nickname may fold to the same key (``nickname_fold``). The
    database's unique key on the folded name settles two players racing for one.
    """
    nickname = nickname_clean(nickname)
    nickname_available_check(nickname=nickname, user=user)
    user.nickname, user.nickname_key = nickname, nickname_fold(nickname)
    try:
        with transaction.atomic():
            user.save(update_fields=["nickname", "nickname_key"])
    except IntegrityError as error:
        user.refresh_from_db(fields=["nickname", "nickname_key"])
        raise _nickname_taken() from error
    return user


def user_device_record(*, user: User, cookie_hash: str) -> None:
    """Note that ``user`` signed in from the browser whose device cookie hashes to ``cookie_hash``.

    One row per account and browser: a first log-in inserts it, a later one
    moves its ``last_seen`` (one statement either way, so two log-ins at once
    cannot collide).
    """
    now = timezone.now()
    UserDevice.objects.bulk_create(
        [UserDevice(user=user, cookie_hash=cookie_hash, first_seen=now, last_seen=now)],
        update_conflicts=True,
        unique_fields=["user", "cookie_hash"],
        update_fields=["last_seen"],
    )


def stats_record_hand(*, user: User, game_slug: str, won: bool) -> None:
    """Count one finished hand (and a win if ``won``) for ``user`` in ``game_slug``.

    Called inside the settlement's transaction. Counters move with F() so two
    settlements at once never lose a count; the row is created on first use
    with an insert that ignores a concurrent twin, then incremented.
    """
    increments = {
        "hands": F("hands") + 1,
        "wins": F("wins") + (1 if won else 0),
        "updated_at": timezone.now(),
    }
    rows = GameStats.objects.filter(user=user, game_slug=game_slug)
    with transaction.atomic():
        if rows.update(**increments):
            return
        # ON CONFLICT DO NOTHING waits for a concurrent insert of the same row, then skips.
        GameStats.objects.bulk_create([GameStats(user=user, game_slug=game_slug)], ignore_conflicts=True)
        rows.update(**increments)


def stats_record_hands(*, game_slug: str, results: dict[int, tuple[int, int]]) -> dict[int, int] | None:
    """Count many players' hands and wins in ``game_slug`` at once: ``{user id: (hands, wins)}``.

    The batch form of ``stats_record_hand`` for a settlement of many hands. On
    PostgreSQL it is one ``INSERT ... ON CONFLICT DO UPDATE`` for the whole
    batch, the rows passed as one JSON parameter (no model instances: building
    them was a fifth of a settlement's Python time). Elsewhere missing rows are
    inserted (ignoring concurrent twins), then one UPDATE with F() increments
    per distinct (hands, wins) pair. Rows are written in user order either way.

    On PostgreSQL returns each counted player's wins after the count (``{user id:
    wins}``, from the statement's ``RETURNING``), which a settlement shows as the
    players' levels without reading the rows again; elsewhere None.
    """
    results = {user_id: counts for user_id, counts in results.items() if counts[0]}
    if not results:
        return {} if connection.vendor == "postgresql" else None
    now = timezone.now()
    if connection.vendor == "postgresql":
        qn = connection.ops.quote_name
        table = qn(GameStats._meta.db_table)
        rows = json.dumps([[user_id, hands, wins] for user_id, (hands, wins) in sorted(results.items())])
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (user_id, game_slug, hands, wins, updated_at) "
                "SELECT (r->>0)::bigint, %s, (r->>1)::int, (r->>2)::int, %s FROM json_array_elements(%s::json) AS r "
                f"ON CONFLICT (user_id, game_slug) DO UPDATE SET hands = {table}.hands + EXCLUDED.hands, "
                f"wins = {table}.wins + EXCLUDED.wins, updated_at = EXCLUDED.updated_at "
                "RETURNING user_id, wins",
                [game_slug, now, rows],
            )
            return dict(cursor.fetchall())
    groups: dict[tuple[int, int], list[int]] = {}
    for user_id, counts in results.items():
        groups.setdefault(counts, []).append(user_id)
    with transaction.atomic():
        GameStats.objects.bulk_create(
            [GameStats(user_id=user_id, game_slug=game_slug) for user_id in sorted(results)],
            ignore_conflicts=True,
        )
        for (hands, wins), user_ids in groups.items():
            GameStats.objects.filter(user_id__in=user_ids, game_slug=game_slug).update(
                hands=F("hands") + hands, wins=F("wins") + wins, updated_at=now
            )
    return None
