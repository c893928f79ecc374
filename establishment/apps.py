from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EstablishmentConfig(AppConfig):
    name = "establishment"
    verbose_name = _("Establishment")

    def ready(self) -> None:
        # The lockout's audit row is written by a receiver of django-axes' signal.
        # SQLite connections are given the hash chains' `chain_link` as they open.
        from establishment import (
            lockout,  # noqa: F401
            rows,  # noqa: F401
        )
