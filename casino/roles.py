"""Staff roles. Each role is a Django group created by migration casino/0002_staff_roles."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    CROUPIER = "croupier", _("Croupier")
    CHANGEUR = "changeur", _("Changeur")
    INSPECTOR = "inspector", _("Table inspector (chef de partie)")
    AUDITOR = "auditor", _("Auditor")
    MANAGER = "manager", _("Manager")
