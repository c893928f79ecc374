from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    """The auditor's desk: alerts, their acknowledgements and the nightly re-audit's runs, on
    the reading-back floor (docs/audit.md)."""

    name = "reports.audit"
    label = "audit"
    verbose_name = _("The auditor's desk")
    default_auto_field = "django.db.models.BigAutoField"
