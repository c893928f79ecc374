"""The accounts of a cagnotte count (art. 70; docs/registers.md, model 11): its difference, the levy
from a surplus, the casino's cash for a shortfall."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0006_house_settings"),
        ("ledger", "0002_ledger_triggers"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="account",
            name="ledger_account_kind_shape",
        ),
        migrations.AlterField(
            model_name="account",
            name="kind",
            field=models.CharField(
                choices=[
                    ("player_position", "Player position"),
                    ("bank_in_play", "Bank in play"),
                    ("coup_stakes", "Coup stakes"),
                    ("cagnotte", "Cagnotte"),
                    ("reliquat", "Reliquat"),
                    ("reserve_fund", "Reserve fund"),
                    ("count_difference", "Count difference"),
                    ("levy_surplus", "Levy from a count's surplus"),
                    ("house_cash", "The casino's cash"),
                ],
                max_length=32,
                verbose_name="kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("kind", "player_position"),
                        ("player__isnull", False),
                        ("gaming_session__isnull", False),
                        ("place", ""),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "bank_in_play"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "coup_stakes"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", False),
                    ),
                    models.Q(
                        ("kind", "cagnotte"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", False),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "reliquat"),
                        ("player__isnull", False),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "reserve_fund"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", False),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "count_difference"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "levy_surplus"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    models.Q(
                        ("kind", "house_cash"),
                        ("player__isnull", True),
                        ("gaming_session__isnull", True),
                        models.Q(("place", ""), _negated=True),
                        ("number__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="ledger_account_kind_shape",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "count_difference")),
                fields=("place",),
                name="ledger_account_unique_count_difference",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "levy_surplus")),
                fields=("place",),
                name="ledger_account_unique_levy_surplus",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "house_cash")),
                fields=("place",),
                name="ledger_account_unique_house_cash",
            ),
        ),
    ]
