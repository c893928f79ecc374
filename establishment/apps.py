from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EstablishmentConfig(AppConfig):
    name = "establishment"
    verbose_name = _("Establishment")
