"""The house's numbered sabots and packs (carnet de prise en charge, model 19; art. 58 of the
arrêté, docs/registers.md): the stock and its assignments to a table's séance. Models of the
table's app (`tables.models` imports them); the sabot each shoe was formed from points here."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from establishment.models import (
    at_and_by_together,
    at_least,
    ends_after_start,
    one_open,
    protected_fk,
    staff_member,
)

__all__ = ["HouseStock", "SeanceAssignment", "StockAssignment", "StockItem", "StockKind"]


class StockKind(models.TextChoices):
    SABOT = "sabot", _("Sabot")
    PACK = "pack", _("Pack of cards")


class HouseStock(models.Model):
    """What every item of the house's stock keeps, a numbered sabot or pack (model 19) as a
    ticket book (docs/registers.md, "Tickets"): when, from whom and by whom it was received,
    and when, by whom and why it was destroyed. The members of staff are each concrete model's
    (their reverse names are its own); the destruction's time and author go together."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    received_at = models.DateTimeField(_("received at"))
    received_from = models.CharField(_("received from"), max_length=200)
    destroyed_at = models.DateTimeField(_("destroyed at"), null=True, blank=True)
    destroyed_reason = models.TextField(_("reason for the destruction"), blank=True, default="")

    class Meta:
        abstract = True
        # Named for each concrete model: tables_stockitem_…, tables_ticketbook_….
        constraints = [
            at_and_by_together(
                "destroyed_at",
                "destroyed_by",
                "%(app_label)s_%(class)s_destroyed_at_and_by_together",
            ),
        ]


class SeanceAssignment(models.Model):
    """An item of the house's stock at a table for a séance, from its assignment to its return
    (model 11, columns 3–5; model 19): a numbered sabot or pack, or a ticket book. Each concrete
    model names the item's field (`stock_field`), its séance and its members of staff (their
    reverse names are its own), and adds the rule that the item is at one table at a time
    (`one_table_at_a_time`)."""

    stock_field: ClassVar[str]

    assigned_at = models.DateTimeField(_("assigned at"))
    returned_at = models.DateTimeField(_("returned at"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["table_session", "assigned_at", "pk"]
        # Named for each concrete model: tables_stockassignment_…, tables_ticketbookassignment_….
        constraints = [
            at_and_by_together(
                "returned_at", "returned_by", "%(app_label)s_%(class)s_returned_at_and_by_together"
            ),
            ends_after_start(
                "returned_at", "assigned_at", "%(app_label)s_%(class)s_returned_after_assigned"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stock} at {self.table_session}"  # type: ignore[attr-defined]

    @property
    def stock(self) -> Any:
        """The item of stock assigned (the sabot or pack, the ticket book)."""
        return getattr(self, self.stock_field)


def one_table_at_a_time(stock_field: str, message: Any) -> models.UniqueConstraint:
    """An item of stock is at one table at a time: at most one open assignment of it (a partial
    unique index, refused in the words of `message`), named for the concrete model."""
    return one_open(
        [stock_field], "%(app_label)s_%(class)s_one_table_at_a_time", message, end="returned_at"
    )


def seance_of(related_name: str) -> Any:
    """The table's séance an item of stock is assigned to, by name: the table's models import
    this module (tables/models.py)."""
    return models.ForeignKey(
        "tables.TableSession",
        on_delete=models.PROTECT,
        related_name=related_name,
        verbose_name=_("table session"),
    )


class StockItem(HouseStock):
    """A numbered sabot or pack of the house's stock (docs/registers.md, model 19): received,
    assigned to a table for a séance, used for one shoe or pack, returned or destroyed. A number
    is never at two tables at once (`StockAssignment`)."""

    kind = models.CharField(_("kind"), max_length=8, choices=StockKind.choices)
    number = models.PositiveIntegerField(_("number"))
    decks = models.PositiveSmallIntegerField(_("decks"))
    received_by = staff_member("stock_received", _("received by"))
    destroyed_by = staff_member("stock_destroyed", _("destroyed by"), optional=True)

    class Meta(HouseStock.Meta):
        ordering = ["kind", "number"]
        verbose_name = _("numbered sabot or pack")
        verbose_name_plural = _("numbered sabots and packs")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "number"], name="tables_stockitem_number_unique"
            ),
            at_least("number", 1, "tables_stockitem_number_positive"),
            at_least("decks", 1, "tables_stockitem_decks_positive"),
            *HouseStock.Meta.constraints,
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.number}"


class StockAssignment(SeanceAssignment):
    """A numbered sabot or pack at a table for a séance, from its assignment to its return
    (model 11, column 3; model 19)."""

    stock_field = "item"

    item = protected_fk(StockItem, "assignments", _("numbered sabot or pack"))
    table_session = seance_of("stock_assignments")
    assigned_by = staff_member("stock_assigned", _("assigned by"))
    returned_by = staff_member("stock_returned", _("returned by"), optional=True)

    class Meta(SeanceAssignment.Meta):
        verbose_name = _("assignment of a numbered sabot or pack")
        verbose_name_plural = _("assignments of numbered sabots and packs")
        constraints = [
            one_table_at_a_time("item", _("This number is already at a table.")),
            *SeanceAssignment.Meta.constraints,
        ]
