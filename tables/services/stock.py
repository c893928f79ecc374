"""The house's numbered sabots and packs (carnet de prise en charge, model 19; art. 58 of the
arrêté, docs/registers.md): received into stock, assigned to a table at the start of a séance,
each used for one shoe or pack, returned or destroyed. A number is never at two tables at once:
the database holds it (`StockAssignment`'s partial unique index) and the service says it first,
naming the table where the number is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from establishment.door import Fields
from establishment.roles import SUPERVISORS
from establishment.services import audit
from establishment.staff import role_required
from tables.models import Sabot, TableSession
from tables.services import inventory
from tables.services.inventory import StockBusyError
from tables.services.writing import open_table_session_lock
from tables.stock_models import StockAssignment, StockItem, StockKind

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "RECEIVE_MOST",
    "STOCK",
    "StockBusyError",
    "stock_assign",
    "stock_destroy",
    "stock_for_new_shoe",
    "stock_receive",
    "stock_return",
    "stock_return_all",
]

# At most this many numbers received at once (a delivery of cards, not a typo of a range).
RECEIVE_MOST = 1000


def _label(item: StockItem) -> str:
    return _("%(kind)s %(number)d") % {"kind": StockKind(item.kind).label, "number": item.number}


# The numbered sabots and packs as one of the house's stocks (`tables.services.inventory`).
STOCK = inventory.Stock(
    items=StockItem,
    assignments=StockAssignment,
    label=_label,
    details=lambda item: {"number": item.number},
    words=inventory.Words(
        name="item",
        at_table=gettext_lazy("%(item)s is at table %(table)s: return it first."),
        destroyed=gettext_lazy("%(item)s was destroyed."),
        not_at_table=gettext_lazy("%(item)s is not at a table."),
        destroyed_already=gettext_lazy("%(item)s was destroyed already."),
    ),
)


@transaction.atomic
def stock_receive(
    *,
    kind: str,
    first: Any,
    last: Any,
    decks: Any,
    received_from: str,
    received_by: User,
    client: str = "",
) -> list[StockItem]:
    """Receive the numbers `first` to `last` of a kind into stock (an inspector or a manager).
    Refused, with nothing received, when one of them is in stock already."""
    role_required(received_by, SUPERVISORS, "receive sabots and packs into stock")
    fields = Fields()
    kind = fields.choice("kind", kind, StockKind.values)
    first = fields.whole("first", first, 1, 999_999)
    last = fields.whole("last", last, 1, 999_999)
    decks = fields.whole("decks", decks, 1, 8)
    received_from = fields.text("received_from", received_from, max_length=200)
    if first and last and not first <= last <= first + RECEIVE_MOST - 1:
        fields.add(
            "last",
            _("Enter a number from %(first)d to %(most)d: at most %(count)d at once.")
            % {"first": first, "most": first + RECEIVE_MOST - 1, "count": RECEIVE_MOST},
        )
    fields.refuse_if_any()
    numbers = range(first, last + 1)
    taken = inventory.in_stock_already(
        StockItem.objects.filter(kind=kind, number__in=numbers), "number"
    )
    if taken:
        raise StockBusyError(
            _("Already in stock: %(numbers)s. Nothing was received.")
            % {"numbers": ", ".join(str(n) for n in taken)},
            numbers=taken,
        )
    now = timezone.now()
    delivery = {"decks": decks, "received_from": received_from}
    items = inventory.written_once(
        lambda: StockItem.objects.bulk_create(
            StockItem(kind=kind, number=n, received_at=now, received_by=received_by, **delivery)
            for n in numbers
        ),
        _("Someone received some of these numbers at the same moment; look again."),
    )
    audit(
        user=received_by, action="stock_receive", client=client, kind=kind, first=first, last=last
    )
    return items


def _missing(kind: str, number: int) -> StockBusyError:
    return StockBusyError(
        _("No %(kind)s number %(number)d in stock.")
        % {"kind": StockKind(kind).label.lower(), "number": number},
        number=number,
    )


def _item_locked(kind: str, number: int) -> StockItem:
    item = StockItem.objects.select_for_update().filter(kind=kind, number=number).first()
    if item is None:
        raise _missing(kind, number)
    return item


def _free_items_locked(kind: str, numbers: list[int]) -> list[StockItem]:
    """The numbers, locked, in the order given (three queries however many): refused at the
    first one missing, destroyed, used for a shoe or at a table."""
    items = {
        item.number: item
        for item in StockItem.objects.select_for_update().filter(kind=kind, number__in=numbers)
    }
    used = set(
        Sabot.objects.filter(stock_item__in=list(items.values())).values_list(
            "stock_item_id", flat=True
        )
    )

    def unused(item: StockItem) -> None:
        if item.pk in used:
            raise StockBusyError(
                _("%(item)s has been used for a shoe already.") % {"item": _label(item)},
                number=item.number,
            )

    return inventory.free_locked(STOCK, items, numbers, lambda n: _missing(kind, n), unused)


@transaction.atomic
def stock_assign(
    *,
    table_session: TableSession,
    kind: str,
    numbers: Iterable[int],
    assigned_by: User,
    client: str = "",
) -> list[StockAssignment]:
    """Assign numbered sabots or packs to an open table for its séance (an inspector or a
    manager). Refused, with nothing assigned, when one is at a table already, used, destroyed,
    or made for another number of decks than the table plays."""
    role_required(assigned_by, SUPERVISORS, "assign sabots and packs to a table")
    fields = Fields()
    kind = fields.choice("kind", kind, StockKind.values)
    wanted = sorted({n for n in numbers if isinstance(n, int) and not isinstance(n, bool)})
    if not wanted:
        fields.add("numbers", _("Choose at least one number."))
    fields.refuse_if_any()
    locked = open_table_session_lock(table_session)
    decks = locked.settings.get("decks")
    items = _free_items_locked(kind, wanted)
    for item in items:
        if isinstance(decks, int) and item.decks != decks:
            raise StockBusyError(
                _("%(item)s holds %(held)d decks; this table plays with %(decks)d.")
                % {"item": _label(item), "held": item.decks, "decks": decks},
                number=item.number,
            )
    assignments = inventory.assignments_create(
        STOCK,
        items,
        table_session=locked,
        assigned_by=assigned_by,
        refusal=_("Someone assigned one of these numbers at the same moment; look again."),
    )
    audit(
        user=assigned_by, action="stock_assign", table_session=locked, client=client, numbers=wanted
    )
    return assignments


@transaction.atomic
def stock_return(*, kind: str, number: int, returned_by: User, client: str = "") -> StockAssignment:
    """Take a numbered sabot or pack back from the table it is at (an inspector or a manager)."""
    role_required(returned_by, SUPERVISORS, "take sabots and packs back")
    held = inventory.one_returned(STOCK, _item_locked(kind, number), returned_by)
    audit(
        user=returned_by,
        action="stock_return",
        table_session=held.table_session,
        client=client,
        kind=kind,
        number=number,
    )
    return held


def stock_return_all(table_session: TableSession, returned_by: User, now: Any) -> list[int]:
    """At the close of a séance: every number still at the table comes back (in the caller's
    transaction, the table's row locked)."""
    ended = inventory.all_returned(STOCK, table_session, returned_by, now)
    return sorted(a.item.number for a in ended)


@transaction.atomic
def stock_destroy(
    *, kind: str, number: int, reason: str, destroyed_by: User, client: str = ""
) -> StockItem:
    """Destroy a numbered sabot or pack (an inspector or a manager), with the reason; never one
    that is at a table."""
    role_required(destroyed_by, SUPERVISORS, "destroy sabots and packs")
    reason = inventory.destruction_reason(reason)
    item = inventory.destroyed(STOCK, _item_locked(kind, number), reason=reason, by=destroyed_by)
    audit(
        user=destroyed_by,
        action="stock_destroy",
        client=client,
        kind=kind,
        number=number,
        reason=reason,
    )
    return item


def stock_for_new_shoe(table_session: TableSession, number: Any) -> StockItem | None:
    """The numbered sabot or pack a new shoe is formed from (recording, in its transaction):
    one of the numbers assigned to the table and not used yet. None when the séance has no
    numbers assigned (a house that does not number its cards); refused when it has and the
    number is missing or not one of them."""
    assigned = StockAssignment.objects.filter(table_session=table_session, returned_at__isnull=True)
    if not assigned.exists():
        return None
    free = sorted(assigned.filter(item__sabots__isnull=True).values_list("item__number", flat=True))
    wanted = number if isinstance(number, int) and not isinstance(number, bool) else None
    item = (
        StockItem.objects.select_for_update()
        .filter(pk__in=assigned.values("item_id"), number=wanted)
        .first()
    )
    if item is not None and item.sabots.exists():
        item = None  # used for a shoe already
    if item is None:
        raise StockBusyError(
            _("Choose the number of the new shoe among those at this table: %(numbers)s.")
            % {"numbers": ", ".join(str(n) for n in free) or _("none left")},
            numbers=free,
        )
    return item
