"""Towers money: debts paid in coins, the house's cut, exact arithmetic.

A solde card is one coin owed to each other player still in the game. A fleeing player pays his
whole solde to each of them at once; at the end each pair of remaining players nets out (the
larger solde pays the difference). The house keeps ``cut`` of every payment, taken from what the
payee receives (option ``house_cut_from: payee``) or added on top of what the payer pays
(``house_cut_from: payer``). Amounts are :class:`~fractions.Fraction`; a cut written as a decimal keeps
every amount a terminating decimal, which :func:`money` prints exactly.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Iterable, NamedTuple

ZERO = Fraction(0)
#: The most decimal places a house cut may have (a billionth of a coin): what a cut means stops well
#: before, and beyond some thousands of places exact amounts no longer print.
CUT_PLACES = 9


class Payment(NamedTuple):
    """One payment: ``payer`` gives ``paid``, ``payee`` gets ``received``, the house ``house``."""

    payer: int
    payee: int
    coins: int
    paid: Fraction
    received: Fraction
    house: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "coins": self.coins, "paid": money(self.paid),
                "received": money(self.received), "house": money(self.house)}


def parse_cut(value: Any) -> Fraction:
    """The house cut of a config value (``0.05`` or ``"0.05"``) as an exact fraction in [0, 1)."""
    try:
        exact = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ValueError(f"house cut {value!r} is not a decimal number") from None
    if not exact.is_finite() or not 0 <= exact < 1:  # compared as decimals: 1e99999999 is never expanded
        # a cut written as a percentage (5 for 5 %: a designer's finding) is answered with its share
        hint = f" (a share of each debt: {value} % is {exact / 100})" if exact.is_finite() and 1 <= exact < 100 else ""
        raise ValueError(f"house cut {_as_written(exact, value)} must be at least 0 and below 1{hint}")
    if exact and _places(exact) > CUT_PLACES:
        raise ValueError(f"house cut {_as_written(exact, value)} has more than {CUT_PLACES} decimal places")
    return Fraction(exact)


def _as_written(exact: Decimal, value: Any) -> str:
    """A cut as a designer wrote it, not as YAML's float prints it (0.0000000001 said as 1e-10: a designer's
    finding), but for one of digits by the thousand (a quoted 1e-999999), said as given."""
    if exact.is_finite() and abs(exact.adjusted()) <= 4 * CUT_PLACES:
        return f"{exact.normalize():f}"  # never 0, which is a valid cut
    return repr(value)


def _places(number: Decimal) -> int:
    """Decimal places of ``number`` without its trailing zeros (0.050 has 2)."""
    _, digits, exponent = number.as_tuple()
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(0, -(exponent + trailing))


def payment(payer: int, payee: int, coins: int, cut: Fraction, cut_from: str) -> Payment:
    """``payer`` owes ``payee`` ``coins`` coins; the house takes its cut as configured."""
    house = coins * cut
    if cut_from == "payer":
        return Payment(payer, payee, coins, coins + house, Fraction(coins), house)
    return Payment(payer, payee, coins, Fraction(coins), coins - house, house)


def flee_payments(seat: int, solde: int, others: Iterable[int], cut: Fraction, cut_from: str) -> list[Payment]:
    """What a fleeing player pays: his solde, in coins, to each player still in (seat order)."""
    if solde == 0:
        return []
    return [payment(seat, other, solde, cut, cut_from) for other in sorted(others)]


def final_payments(soldes: dict[int, int], cut: Fraction, cut_from: str, netted: bool) -> list[Payment]:
    """End-of-game settlement between the players still in (``seat -> solde size``).

    Netted (option ``settlement: net``): each pair nets out, the larger solde paying the
    difference, so the house's cut is of the differences. Gross (``settlement: gross``): every
    player pays his whole solde to each other player, and the house cuts each of those debts.
    Pairs in seat order (gross: the first seat's payment, then the second's).
    """
    seats = sorted(soldes)
    payments = []
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if netted:
                diff = soldes[a] - soldes[b]
                if diff > 0:
                    payments.append(payment(a, b, diff, cut, cut_from))
                elif diff < 0:
                    payments.append(payment(b, a, -diff, cut, cut_from))
            else:
                payments += [payment(x, y, soldes[x], cut, cut_from) for x, y in ((a, b), (b, a)) if soldes[x]]
    return payments


def money(value: Fraction) -> str:
    """An exact decimal string with at least two decimals (``Fraction(-1, 5)`` -> ``"-0.20"``).

    Raises ValueError for an amount that is no terminating decimal (impossible with a decimal cut).
    """
    den, twos, fives = value.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den != 1:
        raise ValueError(f"{value} is not a terminating decimal")
    places = max(twos, fives, 2)
    scaled = value * 10**places
    digits = abs(scaled.numerator)
    sign = "-" if scaled.numerator < 0 else ""
    whole, frac = divmod(digits, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"
