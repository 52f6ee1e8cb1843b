"""A pot one hand carries into the next at the same table (a tie that rolls the pot on), for every game.

A hand whose outcome carries a pot (``details["carry"] = {"pot", "level",
"players"}``: ``pot`` every coin staked in the chain so far, possibly none,
``players`` who may play for it, an optional ``min_players`` (2 by default) the
fewest of them the chain goes on with, any other key for the engine) settles its
stakes into the table's escrow sub-account (``escrow:table:<id>``) instead of
into wallets, and the table keeps the carry. The next hand there is dealt with
``config["carry"]`` and only the carry's players who are still seated (in the
first seats; newcomers may not sit down meanwhile); its outcome's
``details["from_carried_pot"]`` is paid out of the sub-account at its
settlement, with the rake on each winner's profit as usual.

A chain that cannot continue (fewer than ``min_players`` of its players seated,
or the table closing) ends: the pot is shared equally, odd coins to the first
seats, by the players of its last hand still seated, else by all of them (a pot
of no coins posts nothing).
"""

from __future__ import annotations

from rooms.tables.models import Seat, Table
from wallets.models import Account, LedgerTransaction
from wallets.services import Posting, escrow_subaccount, wallet_for_user

# What a seat's occupant is: moved together when a chain's players close up to the first seats.
OCCUPANT_FIELDS = [
    "user",
    "is_bot",
    "ready",
    "trustee",
    "connected",
    "seated_at",
    "away_since",
    "sockets",
    "present_until",
]


def carry_of(details: dict) -> dict | None:
    """The pot an outcome carries to the next hand, or None (anything malformed carries nothing)."""
    carry = details.get("carry")
    if not isinstance(carry, dict):
        return None
    pot, players = carry.get("pot"), carry.get("players")
    if type(pot) is not int or pot < 0 or not isinstance(players, list) or not players:
        return None
    least = carry.get("min_players", 2)
    if type(least) is not int or not 2 <= least <= len(players):
        return None
    return carry


def _least(carry: dict) -> int:
    return carry.get("min_players", 2)


def pot_account(table_id: int) -> Account:
    return escrow_subaccount(name=f"table:{table_id}")


def pot_move(hand, details: dict, deltas: list[int]) -> int:
    """The coins the hand's settlement moves into (+) or out of (−) the table's carried pot."""
    carried_in = (hand.config.get("carry") or {}).get("pot") or 0
    carry = carry_of(details)
    move = (carry["pot"] if carry else 0) - carried_in
    if move != -sum(deltas):
        raise ValueError(f"hand {hand.pk}: its deltas sum to {sum(deltas)}, its carried pot moves {move}")
    return move


def engine_carry(table: Table) -> dict | None:
    """The table's carry as the next hand's ``config["carry"]`` (without the runtime's own keys)."""
    if not table.carry:
        return None
    return {key: value for key, value in table.carry.items() if key != "hand"}


def is_chain_player(table: Table, user_id: int | None) -> bool:
    return bool(table.carry) and user_id in table.carry["players"]


def dealt_seats(table: Table, seats: list[Seat]) -> list[Seat]:
    """The seats the next hand deals in: every seat, or during a chain its players (the first seats)."""
    if not table.carry:
        return seats
    chain = [seat for seat in seats if seat.user_id in table.carry["players"]]
    return chain if len(chain) >= _least(table.carry) and seats[: len(chain)] == chain else []


def after_seating(table: Table, seats: list[Seat], *, closing: bool) -> Posting | None:
    """Between hands, after seats emptied: close the chain's players up, or end the chain.

    Returns the posting that shares the pot out when the chain ends (the caller
    posts it) and clears ``table.carry`` (the caller saves it).
    """
    carry = table.carry
    if not carry:
        return None
    chain = [seat for seat in seats if seat.user_id in carry["players"]]
    if len(chain) >= _least(carry) and not closing:
        for index, seat in enumerate(chain):
            if seats[index] is not seat:
                _swap(seats[index], seat)
        return None
    table.carry = None
    receivers = [seat.user_id for seat in chain] or list(carry["players"])
    pot = carry["pot"]
    if not pot:
        return None
    wallets = _lock_wallets(receivers)
    share, odd = divmod(pot, len(receivers))
    legs = [(pot_account(table.pk), -pot)]
    legs += [(wallets[user], share + (k < odd)) for k, user in enumerate(receivers) if share + (k < odd)]
    return Posting(
        key=f"hand:{carry['hand']}:pot-release",
        kind=LedgerTransaction.Kind.SETTLEMENT,
        legs=legs,
        reference=f"hand:{carry['hand']}",
        memo=f"table {table.pk}: the chain ended, its carried pot of {pot} shared by {len(receivers)}",
        game_slug=table.tier.game.slug,
        tier_id=table.tier_id,
    )


def _swap(a: Seat, b: Seat) -> None:
    """Exchange the occupants of two seats of one table (a user sits in one seat at a time)."""
    values_a = {name: getattr(a, name) for name in OCCUPANT_FIELDS}
    values_b = {name: getattr(b, name) for name in OCCUPANT_FIELDS}
    for seat, values in ((b, None), (a, values_b), (b, values_a)):
        for name in OCCUPANT_FIELDS:
            default = Seat._meta.get_field(name).get_default() if values is None else values[name]
            setattr(seat, name, default)
        seat.save(update_fields=OCCUPANT_FIELDS)


def _lock_wallets(user_ids: list[int]) -> dict[int, Account]:
    """Lock the receivers' wallets in primary-key order (the ledger's order), creating missing ones."""
    rows = Account.objects.select_for_update(of=("self",)).filter(user_id__in=user_ids).order_by("pk")
    wallets = {account.user_id: account for account in rows}
    user_model = Seat._meta.get_field("user").related_model
    for user in user_model.objects.filter(pk__in=set(user_ids) - set(wallets)):
        wallets[user.pk] = wallet_for_user(user=user)
    return wallets
