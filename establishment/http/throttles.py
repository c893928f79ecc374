"""The API's throttles: DRF's, per user (per address for a request without one), with the rates
read from the settings at each request rather than when DRF was imported, so that a change of
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (a deployment's, a test's) takes effect. Beyond the
rate a client gets 429 `throttled`, with `Retry-After`, in the API's error shape."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


def _rate(scope: str | None) -> str | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return str(rate) if rate is not None else None


class UserThrottle(UserRateThrottle):
    """Requests of one account (or one address without an account), scope `user`."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)


class AnonymousThrottle(AnonRateThrottle):
    """Requests without an account, per address, scope `anon`."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)
