"""The auditor's desk's own rows (docs/audit.md): the alerts raised, each acknowledged once with
a reason, and the nightly re-audit's runs. All written once, never changed: an alert is open
until an acknowledgement names it."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from establishment.models import AppendOnlyModel, GamingSession, protected_fk, staff_member


class AlertKind(models.TextChoices):
    BOOKS_DISAGREE = "books_disagree", _("The books disagree with the tables")
    HASH_BROKEN = "hash_broken", _("A stored hash no longer matches")
    STATISTICAL_FLAG = "statistical_flag", _("Results far from the game's odds")
    ABNORMAL_PACE = "abnormal_pace", _("A table played at an unusual pace")
    CORRECTIONS = "corrections", _("Many undos or voids by one croupier")
    CAGNOTTE_SHORTFALL = "cagnotte_shortfall", _("The counted cagnotte fell short")


class Alert(AppendOnlyModel):
    """Something an auditor, a manager or an inspector must look at. `key` says which night,
    table or person it is about, so the same finding is raised once."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(_("kind"), max_length=32, choices=AlertKind.choices)
    key = models.CharField(_("about"), max_length=200)
    raised_at = models.DateTimeField(_("raised at"))
    gaming_session = protected_fk(GamingSession, "alerts", _("gaming session"), optional=True)
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    detail = models.JSONField(_("detail"), default=dict, blank=True)

    class Meta:
        ordering = ["-raised_at", "-pk"]
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="audit_alert_raised_once")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.key})"


class Acknowledgement(AppendOnlyModel):
    """Who acknowledged an alert, when and why: one per alert."""

    alert = models.OneToOneField(
        Alert, on_delete=models.PROTECT, related_name="acknowledgement", verbose_name=_("alert")
    )
    by = staff_member("alert_acknowledgements", _("by"))
    at = models.DateTimeField(_("at"))
    reason = models.TextField(_("reason"))

    class Meta:
        verbose_name = _("acknowledgement")
        verbose_name_plural = _("acknowledgements")

    def __str__(self) -> str:
        return f"{self.alert} acknowledged by {self.by}"


class Reaudit(AppendOnlyModel):
    """One night checked again by the nightly re-audit: replayed from its journals against its
    books and its stored report, with what was found."""

    run_at = models.DateTimeField(_("run at"))
    gaming_session = protected_fk(GamingSession, "reaudits", _("gaming session"))
    books_agree = models.BooleanField(_("books agree"))
    same_report = models.BooleanField(_("same report"))
    problems = models.JSONField(_("problems"), default=list, blank=True)

    class Meta:
        ordering = ["-run_at", "-pk"]
        verbose_name = _("re-audit")
        verbose_name_plural = _("re-audits")

    def __str__(self) -> str:
        return f"Re-audit of {self.gaming_session} at {self.run_at:%Y-%m-%d %H:%M}"
