"""The house's numbered sabots and packs (carnet de prise en charge, model 19; art. 58 of the
arrêté, docs/registers.md): the stock and its assignments to a table's séance. Models of the
table's app (`tables.models` imports them); the sabot each shoe was formed from points here."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    pass

__all__ = ["StockAssignment", "StockItem", "StockKind"]


class StockKind(models.TextChoices):
    SABOT = "sabot", _("Sabot")
    PACK = "pack", _("Pack of cards")


class StockItem(models.Model):
    """A numbered sabot or pack of the house's stock (docs/registers.md, model 19): received,
    assigned to a table for a séance, used for one shoe or pack, returned or destroyed. A number
    is never at two tables at once (`StockAssignment`)."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=8, choices=StockKind.choices)
    number = models.PositiveIntegerField(_("number"))
    decks = models.PositiveSmallIntegerField(_("decks"))
    received_at = models.DateTimeField(_("received at"))
    received_by = staff_member("stock_received", _("received by"))
    received_from = models.CharField(_("received from"), max_length=200)
    destroyed_at = models.DateTimeField(_("destroyed at"), null=True, blank=True)
    destroyed_by = staff_member("stock_destroyed", _("destroyed by"), optional=True)
    destroyed_reason = models.TextField(_("reason for the destruction"), blank=True, default="")

    class Meta:
        ordering = ["kind", "number"]
        verbose_name = _("numbered sabot or pack")
        verbose_name_plural = _("numbered sabots and packs")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "number"], name="tables_stockitem_number_unique"
            ),
            at_least("number", 1, "tables_stockitem_number_positive"),
            at_least("decks", 1, "tables_stockitem_decks_positive"),
            at_and_by_together(
                "destroyed_at", "destroyed_by", "tables_stockitem_destroyed_at_and_by_together"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.number}"


class StockAssignment(models.Model):
    """A numbered sabot or pack at a table for a séance, from its assignment to its return
    (model 11, column 3; model 19)."""

    item = protected_fk(StockItem, "assignments", _("numbered sabot or pack"))
    # By name: the table's models import this module (tables/models.py).
    table_session = models.ForeignKey(
        "tables.TableSession",
        on_delete=models.PROTECT,
        related_name="stock_assignments",
        verbose_name=_("table session"),
    )
    assigned_at = models.DateTimeField(_("assigned at"))
    assigned_by = staff_member("stock_assigned", _("assigned by"))
    returned_at = models.DateTimeField(_("returned at"), null=True, blank=True)
    returned_by = staff_member("stock_returned", _("returned by"), optional=True)

    class Meta:
        ordering = ["table_session", "assigned_at", "pk"]
        verbose_name = _("assignment of a numbered sabot or pack")
        verbose_name_plural = _("assignments of numbered sabots and packs")
        constraints = [
            one_open(
                ["item"],
                "tables_stockassignment_one_table_at_a_time",
                _("This number is already at a table."),
                end="returned_at",
            ),
            at_and_by_together(
                "returned_at", "returned_by", "tables_stockassignment_returned_at_and_by_together"
            ),
            ends_after_start(
                "returned_at", "assigned_at", "tables_stockassignment_returned_after_assigned"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item} at {self.table_session}"
