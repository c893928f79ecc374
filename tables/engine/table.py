"""Seats, standing players, actors and rotation (COM-3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from tables.engine.errors import (
    ParamValue,
    bad_action,
    no_such_seat,
    not_eligible,
    not_present,
    player_present,
    seat_taken,
    table_size,
)
from tables.engine.settlement import CROUPIER

# An actor as recorded: a seat number, a standing player's or carabin's id, or "croupier"
# (COM-10.2); a seated player may also be named by his id, which means his seat.
Actor = int | str


@dataclass(frozen=True)
class Who:
    """An actor resolved against the table."""

    kind: Literal["seat", "standing", "croupier"]
    seat: int | None = None
    player: str | None = None

    @property
    def label(self) -> str:
        """How an error's parameters name this actor: the player id, or ``croupier``."""
        if self.kind == "croupier":
            return CROUPIER
        assert self.player is not None
        return self.player

    # -- COM-10.2 step 3, second half: may this actor perform the action at all? --------------
    # Each check raises ``E_NOT_ELIGIBLE`` with the game's own ``reason`` (a code) and the
    # values its words name.

    def require_croupier(self, action: str, reason: str, **params: ParamValue) -> Who:
        """The croupier only (COM-3.7: he records the cards and the session actions)."""
        if self.kind != "croupier":
            raise not_eligible(self.label, action, reason, **params)
        return self

    def require_seated(
        self, action: str, reason: str, *, croupier: str | None = None, **params: ParamValue
    ) -> Who:
        """A seated player; ``croupier``, if given, is the reason (a code) for the croupier."""
        if self.kind == "croupier" and croupier is not None:
            raise not_eligible(self.label, action, croupier, **params)
        if self.kind != "seat":
            raise not_eligible(self.label, action, reason, **params)
        return self

    def require_banker(
        self,
        action: str,
        banker: str | None,
        reason: str = "R_BANKER_ONLY",
        /,
        **params: ParamValue,
    ) -> Who:
        """The banker ``banker``, who always has a seat (COM-9.1); the reason's words may name
        him (``banker``)."""
        if self.kind != "seat" or self.player != banker:
            if banker is not None:
                params.setdefault("banker", banker)
            raise not_eligible(self.label, action, reason, **params)
        return self


@dataclass(frozen=True)
class Seating:
    """Who sits where and who stands, immutable (COM-3.1, COM-3.5).

    ``seats`` holds ``(seat, player)`` pairs in increasing seat order; ``standing`` holds the
    standing players and carabins in the order the croupier recorded them.
    """

    seat_count: int
    seats: tuple[tuple[int, str], ...] = ()
    standing: tuple[str, ...] = ()

    # -- reading -----------------------------------------------------------------------------

    # Who sits where, worked out once per seating (it never changes) for the lookups every
    # action makes; the first pair wins, as a scan of ``seats`` would find it.
    @cached_property
    def _players(self) -> dict[int, str]:
        return dict(reversed(self.seats))

    @cached_property
    def _seats_of(self) -> dict[str, int]:
        return {player: number for number, player in reversed(self.seats)}

    @cached_property
    def _resolved(self) -> dict[Actor, Who]:
        """The actors already resolved against this seating (``resolve``)."""
        return {}

    def player_at(self, seat: int) -> str | None:
        try:
            return self._players.get(seat)
        except TypeError:  # a value no seat can be (a list, from JSON) names nobody
            return None

    def seat_of(self, player: str) -> int | None:
        try:
            return self._seats_of.get(player)
        except TypeError:  # a value no player id can be (a list, from JSON) names nobody
            return None

    @cached_property
    def occupied(self) -> tuple[int, ...]:
        return tuple(number for number, _ in self.seats)

    @property
    def seated_count(self) -> int:
        return len(self.seats)

    def is_present(self, player: str) -> bool:
        return self.seat_of(player) is not None or player in self.standing

    def seat_exists(self, seat: int) -> bool:
        return 1 <= seat <= self.seat_count

    # -- actors ------------------------------------------------------------------------------

    def resolve(self, actor: Actor | None) -> Who:
        """Resolve a recorded actor (COM-10.2 step 3: ``E_NO_SUCH_SEAT``, ``E_NOT_PRESENT``)."""
        assert actor is not None  # the shape check refuses a missing actor
        kind = actor.__class__
        if kind is int or kind is str:  # never a bool, equal to a seat number
            found = self._resolved.get(actor)
            if found is None:
                found = self._resolved[actor] = self._resolve(actor)
            return found
        return self._resolve(actor)

    def _resolve(self, actor: Actor) -> Who:
        if actor == CROUPIER:
            return Who("croupier")
        if isinstance(actor, int) and not isinstance(actor, bool):
            self.seat_param(actor)
            return Who("seat", actor, self.player_at(actor))
        if isinstance(actor, str):
            return self._present(actor)
        raise bad_action(repr(actor), ["P_ACTOR"])

    def seat_param(self, seat: object) -> int:
        """A parameter naming an occupied seat (``E_NO_SUCH_SEAT``, ``E_NOT_PRESENT``)."""
        assert isinstance(seat, int)
        if not self.seat_exists(seat):
            raise no_such_seat(seat, self.seat_count)
        if self.player_at(seat) is None:
            raise not_present(seat)
        return seat

    # -- rotation (COM-3.2, COM-3.3) ---------------------------------------------------------

    def next_seat(self, seat: int, eligible: Callable[[int], bool] | None = None) -> int | None:
        """The first occupied (and eligible) seat after ``seat``, wrapping; never ``seat``."""
        order = self.rotation_from(seat, eligible)
        return order[0] if order else None

    def rotation_from(
        self, seat: int, eligible: Callable[[int], bool] | None = None
    ) -> tuple[int, ...]:
        """Rotation order from ``seat``: next(X), next(next(X)), …, stopping before X."""
        after = [s for s in self.occupied if s > seat]
        before = [s for s in self.occupied if s < seat]
        return tuple(s for s in after + before if eligible is None or eligible(s))

    # -- session actions (COM-3.8) -----------------------------------------------------------

    def sit(self, player: str, seat: int) -> Seating:
        if not self.seat_exists(seat):
            raise no_such_seat(seat, self.seat_count)
        occupant = self.player_at(seat)
        if occupant is not None:
            raise seat_taken(seat, occupant)
        if self.is_present(player):
            raise player_present(player)
        seats = tuple(sorted((*self.seats, (seat, player))))
        return Seating(self.seat_count, seats, self.standing)

    def sit_up_to(
        self,
        player: str,
        seat: int,
        maximum: int,
        *,
        minimum: int,
        game: str,
    ) -> Seating:
        """``sit`` at a table of at most ``maximum`` seated players (``game``: the game's code).

        The errors of ``sit`` first, then ``E_TABLE_SIZE`` when ``maximum`` players already sit
        (with ``minimum``–``maximum`` and the count before this player).
        """
        seating = self.sit(player, seat)
        if self.seated_count >= maximum:
            raise table_size(game, minimum, maximum, self.seated_count)
        return seating

    def leaving(self, *, seat: int | None = None, player: str | None = None) -> Who:
        """The person ``leave(seat)`` or ``leave(player)`` names (E_NO_SUCH_SEAT, E_NOT_PRESENT)."""
        if seat is not None:
            self.seat_param(seat)
            return Who("seat", seat, self.player_at(seat))
        assert player is not None
        return self._present(player)

    def _present(self, player: str) -> Who:
        """``player`` seated or standing, else ``E_NOT_PRESENT``."""
        seat = self.seat_of(player)
        if seat is not None:
            return Who("seat", seat, player)
        if player in self.standing:
            return Who("standing", None, player)
        raise not_present(player)

    def without(self, who: Who) -> Seating:
        if who.kind == "seat":
            seats = tuple(pair for pair in self.seats if pair[0] != who.seat)
            return Seating(self.seat_count, seats, self.standing)
        standing = tuple(p for p in self.standing if p != who.player)
        return Seating(self.seat_count, self.seats, standing)

    def add_standing(self, player: str) -> Seating:
        if self.is_present(player):
            raise player_present(player)
        return Seating(self.seat_count, self.seats, (*self.standing, player))
