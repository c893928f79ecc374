"""Staff roles. Each role is a Django group created by migration tables/0003_staff_roles
(reception: establishment/0003_reception_role)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    CROUPIER = "croupier", _("Croupier")
    CHANGEUR = "changeur", _("Changeur")
    INSPECTOR = "inspector", _("Table inspector (chef de partie)")
    RECEPTION = "reception", _("Reception")
    AUDITOR = "auditor", _("Auditor")
    MANAGER = "manager", _("Manager")


# Who may configure: the tables themselves (number, game, settings: the cagnotte's rate among
# them) are the manager's; gaming sessions, openings, staff on duty and the players' register
# are an inspector's or a manager's. The services check these (`establishment.staff.role_required`);
# the console and the API ask the same sets to show, or refuse early, what a user may not do.
TABLE_CONFIGURERS = frozenset({Role.MANAGER})
SUPERVISORS = frozenset({Role.MANAGER, Role.INSPECTOR})
# Who admits players at the door: registers them, checks the exclusion list (art. 22 of the
# arrêté of 14 May 2007), keeps that list. Inspectors and managers may too.
DOOR_KEEPERS = frozenset({Role.RECEPTION, Role.INSPECTOR, Role.MANAGER})
# Who reads a player's identity (date and place of birth, address, identity document): the door
# and the auditors; never a croupier or a changeur (screens and API alike).
IDENTITY_READERS = DOOR_KEEPERS | frozenset({Role.AUDITOR})
