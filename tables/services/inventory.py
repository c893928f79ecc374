"""What the house's stock of numbered sabots and packs (model 19; art. 58) and its stock of
ticket books (arts. 59, 82–83; docs/registers.md, "Tickets") have in common, written once: an
item is received, assigned to a table for its séance, taken back, or destroyed; it is never at
two tables at once (the concrete assignment model's partial unique index, said first here with
the table where the item is). `tables.services.stock` and `tables.services.tickets` name their
items (a kind and a number; a face value and a first serial) and keep their own rules (the
decks of a sabot and its shoe; the face values and the three faces of art. 59).

Each refusal is a `StockBusyError` in the stock's own sentences (`Words`: French says « le
carnet » where it says « Sabot 12 ») with the item's own name (`Stock.label`) and details
(`Stock.details`: what names it in the answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.db import IntegrityError, transaction
from django.db.models import Model, Prefetch, QuerySet
from django.utils import timezone

from establishment.door import Fields
from establishment.errors import DomainError, ErrorCode, InvalidInputError, InvalidStateError
from tables.stock_models import HouseStock, SeanceAssignment

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise

    from tables.models import TableSession

_T = TypeVar("_T")
_Item = TypeVar("_Item", bound=HouseStock)
_Held = TypeVar("_Held", bound=SeanceAssignment)
_Stocked = TypeVar("_Stocked", bound=Model)


class StockBusyError(DomainError):
    """The item cannot go where it was sent: at a table already, used, or destroyed."""

    code = ErrorCode.STOCK_UNAVAILABLE
    http_status = 409


@dataclass(frozen=True)
class Words:
    """The sentences of a stock's refusals (translated when said), each with the item's name
    in the placeholder `name` (`%(item)s`, `%(book)s`) and, for `at_table`, `%(table)s`."""

    name: str
    at_table: StrOrPromise
    destroyed: StrOrPromise
    not_at_table: StrOrPromise
    destroyed_already: StrOrPromise


@dataclass(frozen=True)
class Stock(Generic[_Item, _Held]):
    """One of the house's stocks: its items' model and their assignments' model, how an item
    is said (« Sabot 12 », « 1 € book 201–400 »), what names it in a refusal's details, and
    the sentences of its refusals."""

    items: type[_Item]
    assignments: type[_Held]
    label: Callable[[_Item], str]
    details: Callable[[_Item], dict[str, Any]]
    words: Words

    def say(self, sentence: StrOrPromise, item: _Item, **more: Any) -> str:
        """One of the stock's sentences about `item`, translated."""
        return str(sentence) % {self.words.name: self.label(item), **more}

    @property
    def field(self) -> str:
        """The assignment's field that points at the item (`item`, `book`)."""
        return self.assignments.stock_field


def written_once(write: Callable[[], _T], refusal: str) -> _T:
    """Rows written in one go: another screen that wrote the same items in the same instant
    makes the unique indexes refuse (in the words of `refusal`), and nothing of this write is
    kept."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError:
        raise StockBusyError(refusal) from None


def in_stock_already(delivered: QuerySet[Any], key: str) -> list[int]:
    """The first ten of a delivery's items that are in stock already (`delivered`: the items
    of the delivery found in stock), by their `key`: a delivery is received whole or not at
    all, and the refusal names them."""
    return list(delivered.order_by(key).values_list(key, flat=True)[:10])


def held_locked(stock: Stock[_Item, _Held], items: Iterable[_Item]) -> dict[int, _Held]:
    """Where each of `items` is now (its open assignment, locked), by the item's id."""
    field = stock.field
    open_ones = stock.assignments._default_manager.select_for_update().filter(
        **{f"{field}__in": list(items)}, returned_at__isnull=True
    )
    return {getattr(a, f"{field}_id"): a for a in open_ones.select_related("table_session__table")}


def refuse_if_held(stock: Stock[_Item, _Held], item: _Item, held: _Held | None) -> None:
    """Refused when the item is at a table, naming the table."""
    if held is not None:
        table = held.table_session.table.number  # type: ignore[attr-defined]
        raise StockBusyError(
            stock.say(stock.words.at_table, item, table=table),
            **stock.details(item),
            table=table,
        )


def free_locked(
    stock: Stock[_Item, _Held],
    found: dict[_T, _Item],
    wanted: list[_T],
    missing: Callable[[_T], StockBusyError],
    check: Callable[[_Item], None] = lambda item: None,
) -> list[_Item]:
    """The items `found` (locked, by their key) in the order of `wanted`: refused at the first
    one missing, destroyed, refused by `check` (a sabot used for a shoe) or at a table."""
    held = held_locked(stock, found.values())
    for key in wanted:
        item = found.get(key)
        if item is None:
            raise missing(key)
        if item.destroyed_at is not None:
            raise StockBusyError(stock.say(stock.words.destroyed, item), **stock.details(item))
        check(item)
        refuse_if_held(stock, item, held.get(item.pk))
    return [found[key] for key in wanted]


def assignments_create(
    stock: Stock[_Item, _Held],
    items: Iterable[_Item],
    *,
    table_session: TableSession,
    assigned_by: User,
    refusal: str,
) -> list[_Held]:
    """The items assigned to the séance now, in one statement (`written_once`)."""
    now = timezone.now()
    made = [
        stock.assignments(
            **{stock.field: item},
            table_session=table_session,
            assigned_at=now,
            assigned_by=assigned_by,
        )
        for item in items
    ]
    written_once(lambda: stock.assignments._default_manager.bulk_create(made), refusal)
    return made


def returned(
    stock: Stock[_Item, _Held], assignments: Iterable[_Held], by: User, now: Any
) -> list[_Held]:
    """The assignments ended at `now` by `by`, in one statement: the items come back."""
    ended = list(assignments)
    stock.assignments._default_manager.filter(pk__in=[a.pk for a in ended]).update(
        returned_at=now, returned_by=by
    )
    return ended


def one_returned(stock: Stock[_Item, _Held], item: _Item, by: User) -> _Held:
    """The item (locked) taken back from the table it is at; refused when it is at none."""
    held = held_locked(stock, [item]).get(item.pk)
    if held is None:
        raise StockBusyError(stock.say(stock.words.not_at_table, item), **stock.details(item))
    returned(stock, [held], by, timezone.now())
    return held


def all_returned(
    stock: Stock[_Item, _Held], table_session: TableSession, by: User, now: Any
) -> list[_Held]:
    """At the close of a séance: every item still at the table comes back (in the caller's
    transaction, the table's row locked)."""
    held = (
        stock.assignments._default_manager.select_for_update()
        .filter(table_session=table_session, returned_at__isnull=True)
        .select_related(stock.field)
    )
    return returned(stock, held, by, now)


def destruction_reason(reason: Any) -> str:
    """The reason for a destruction, said in words (refused before anything is locked)."""
    fields = Fields()
    reason = fields.text("reason", reason, max_length=500)
    fields.refuse_if_any()
    text: str = reason
    return text


def destroyed(stock: Stock[_Item, _Held], item: _Item, *, reason: str, by: User) -> _Item:
    """The item (locked) destroyed now by `by` for `reason`: never one destroyed already, nor
    one at a table."""
    if item.destroyed_at is not None:
        raise InvalidStateError(stock.say(stock.words.destroyed_already, item))
    refuse_if_held(stock, item, held_locked(stock, [item]).get(item.pk))
    item.destroyed_at = timezone.now()
    item.destroyed_by = by  # type: ignore[attr-defined]
    item.destroyed_reason = reason
    item.save(update_fields=["destroyed_at", "destroyed_by", "destroyed_reason"])
    return item


def ranges_parse(
    text: str, *, pattern: Any, field: str, message: str, most: int | None = None
) -> list[tuple[int, int | None]]:
    """« 3, 4, 7-9 » → [(3, None), (4, None), (7, 9)]: the parts of a list of numbers and
    ranges separated by commas, each matching `pattern`; refused in the words of `message`
    (on `field`) when a part does not, or a range runs downwards or spans `most` or more."""
    parts: list[tuple[int, int | None]] = []
    for part in (p for p in text.split(",") if p.strip()):
        first, dash, last = part.partition("-")
        span = int(last or first) - int(first) if pattern.match(part) else -1
        if span < 0 or (most is not None and span >= most):
            raise InvalidInputError(message, fields={field: [message]})
        parts.append((int(first), int(last) if dash else None))
    return parts


# -- reads -------------------------------------------------------------------------------------


def house_stock_list(
    items: QuerySet[_Stocked],
    assignments: type[Model],
    *extra: str,
    table_session: TableSession | None = None,
) -> QuerySet[_Stocked]:
    """A stock of the house (numbered sabots and packs, ticket books) with where each item has
    been (its séances, who assigned it and took it back, in order) and `extra` relations, or
    the items that have been at one séance."""
    history = Prefetch(
        "assignments",
        queryset=assignments._default_manager.select_related(
            "table_session__table", "assigned_by", "returned_by"
        ).order_by("assigned_at", "pk"),
    )
    found = items.select_related("received_by", "destroyed_by").prefetch_related(history, *extra)
    if table_session is not None:
        found = found.filter(assignments__table_session=table_session).distinct()
    return found
