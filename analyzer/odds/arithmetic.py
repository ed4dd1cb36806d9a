"""Exact integers by modular arithmetic: the primes, factorial tables and the Chinese remainder
theorem that the counters use, and the array steps they share (moves along an axis, residues in
bit pieces for exact dot products).

Counts of deals reach 10**43 (eight players, the jokers deck, at the deal), too big for numpy's
integers; the counters work modulo a few primes below 2**31 (a product of two residues fits in
62 bits), as many as it takes for their product to exceed a bound on the result, and the exact
integer comes back by the Chinese remainder theorem. The fold and the book-by-book count also
work modulo 2**64 (``WRAP``), which int64's own wrapping computes, on their big boxes: in whole
numbers (``binomials``), with what little divides taken out at the end. Where 2**64 and one
prime below 2**31 fall short of the odds, the fold takes a wider prime (``WIDE_PRIMES``, up to
2**48) rather than two primes: its products go by pieces (``times``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.int64]

PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549, 2147483543, 2147483497)

# Not a prime: numpy's int64 arithmetic on arrays wraps, so it already computes modulo 2**64,
# with no reduction at all. The fold and the book-by-book count take big boxes modulo this and
# primes (``folds``, ``books``): 64 bits for one row of their arrays, where a prime gives 31.
WRAP = 1 << 64


# The largest prime below 2**k, for k from 32 to 48 (``WIDEST``): one row of the fold's arrays where
# 2**64 and a prime below 2**31 fall a few bits short of the deals, and two primes would take
# two rows (``wide_prime``). Sums of their residues still have room in int64 (``WIDEST`` bits
# leave 14 bits for the moves of card factors between reductions); their products do not, and
# are made by pieces (``times``).
WIDE_PRIMES = (
    4294967291,
    8589934583,
    17179869143,
    34359738337,
    68719476731,
    137438953447,
    274877906899,
    549755813881,
    1099511627689,
    2199023255531,
    4398046511093,
    8796093022151,
    17592186044399,
    35184372088777,
    70368744177643,
    140737488355213,
    281474976710597,
)
WIDEST = WIDE_PRIMES[-1].bit_length()


def wide_prime(rest: int) -> int | None:
    """The smallest of ``WIDE_PRIMES`` over ``rest`` (what a count modulo 2**64 leaves for a second
    modulus to pass), or None: where a prime below 2**31 passes it, or none of them does."""
    if rest < PRIMES[0]:
        return None
    return next((q for q in WIDE_PRIMES if q > rest), None)


def wrapped(x: int) -> int:
    """``x`` modulo ``WRAP``, as the int64 that holds it (two's complement)."""
    return (x + (1 << 63)) % WRAP - (1 << 63)


# Primes below 2**28: a hundred products of two residues add up inside int64.
SMALL_PRIMES = (
    268435399,
    268435367,
    268435361,
    268435337,
    268435331,
    268435313,
    268435291,
    268435273,
    268435243,
    268435183,
)


def deal_bound(slots: Sequence[int]) -> int:
    """The deals ignoring every constraint (a multinomial): a bound on every count of a view."""
    bound = math.factorial(sum(slots))
    for s in slots:
        bound //= math.factorial(s)
    return bound


def fit_bound(slots: Sequence[int], masks: Sequence[int]) -> int:
    """A bound on the deals that give each card to a player its mask allows (bit i: the player
    of ``slots[i]``), and each player its slots: the multinomial (``deal_bound``), or Bregman's
    bound on the permanent where it is smaller, as it is once many cards are ruled out for
    some players (most of a game: 10 to 15 bits on the 8-player jokers games, a modulus fewer).

    A deal is a perfect matching of the cards with the players' slots (each player's slots told
    apart: ``slots[i]!`` matchings a deal), so the deals are the permanent of the 0-1 matrix
    cards x slots, over the product of the ``slots[i]!``. Bregman's theorem bounds the permanent
    by the product over the rows of ``(r!) ** (1 / r)``, ``r`` a row's ones; the columns bound it
    too (the permanent of the transpose is the same). Both in logarithms, with a margin far
    beyond the rounding of ``math.lgamma``."""
    bound = deal_bound(slots)
    if len(masks) != sum(slots) or any(s < 0 for s in slots):
        return bound  # (no deal fits: the counters say so)

    def log_factorial(n: int) -> float:
        return math.lgamma(n + 1) / math.log(2)

    alike = Counter(masks)  # (a few distinct masks: each row's ones counted once)
    rows = {m: sum(s for i, s in enumerate(slots) if m >> i & 1) for m in alike}
    columns = [sum(k for m, k in alike.items() if m >> i & 1) for i in range(len(slots))]
    if 0 in rows.values() or any(a == 0 < s for a, s in zip(columns, slots, strict=True)):
        return bound
    below = sum(log_factorial(s) for s in slots)
    by_rows = sum(k * log_factorial(rows[m]) / rows[m] for m, k in alike.items())
    by_columns = sum(s * log_factorial(a) / a for a, s in zip(columns, slots, strict=True) if s)
    bits = min(by_rows, by_columns) - below + 1e-6
    return bound if bits >= 1000 else min(bound, math.ceil(2.0**bits))


def run_weight(moduli: Sequence[int]) -> float:
    """The work of a run modulo these moduli, in rows of 2**64's: a prime's row a fifth more (it
    reduces; on the slowest folded view, 116 ms a row against 97), a wide prime's half more (it
    reduces more often, and its products go by pieces: 1.13 to 1.5 times, 39 to 48 bits, on the
    jokers games' slowest views). Runs in threads start the heaviest first
    (``parallel.run_all``)."""
    return sum(1.0 if q == WRAP else 1.2 if q < 1 << 31 else 1.5 for q in moduli)


def primes_for(bound: int, primes_from: Sequence[int] = PRIMES) -> list[int]:
    """The fewest primes (of ``primes_from``) whose product exceeds ``bound``."""
    primes: list[int] = []
    while math.prod(primes) <= bound:
        primes.append(primes_from[len(primes)])
    return primes


@cache
def tables(prime: int, top: int) -> tuple[Array, Array]:
    """n! and 1/n! modulo ``prime`` for n in 0..top."""
    fact = [1] * (top + 1)
    for i in range(1, top + 1):
        fact[i] = fact[i - 1] * i % prime
    inv = [pow(f, -1, prime) for f in fact]
    return np.array(fact, dtype=np.int64), np.array(inv, dtype=np.int64)


@cache
def binomials(moduli: tuple[int, ...], top: int) -> Array:
    """``C(n, k)`` modulo each modulus (a prime, or ``WRAP``), for n and k in 0..top: an array
    (modulus, n, k), 0 where k > n. By Pascal's rule: sums alone, so modulo ``WRAP`` too."""
    out = np.zeros((len(moduli), top + 1, top + 1), dtype=np.int64)
    out[:, :, 0] = 1
    for n in range(1, top + 1):
        out[:, n, 1:] = out[:, n - 1, 1:] + out[:, n - 1, :-1]
        for row, q in enumerate(moduli):
            if q != WRAP:
                out[row, n] %= q
    return out


def stacked_tables(primes: Sequence[int], top: int) -> tuple[Array, Array]:
    """``tables`` for each prime, a row per prime."""
    each = [tables(int(q), top) for q in primes]
    return np.stack([t[0] for t in each]), np.stack([t[1] for t in each])


_ONE_PRIME_AT_A_TIME = 1 << 12  # from this many elements per prime, reduced one prime at a time


def residues(a: Array, primes: Sequence[int], axis: int, out: Array | None = None) -> Array:
    """``a`` modulo the prime of each index along ``axis`` (one prime per index), into ``out``
    (``a`` itself, other memory, or a new array when None). ``np.remainder`` by an array of
    primes divides element by element; from 4,096 elements per prime, one prime at a time as
    ``x - (x // p) * p`` lets numpy divide by a constant: about five times faster on a box of
    hundreds of thousands of states."""
    axis %= a.ndim
    if a.shape[axis] != len(primes):
        raise ValueError(f"{a.shape[axis]} rows along axis {axis} for {len(primes)} primes")
    if a.size < _ONE_PRIME_AT_A_TIME * len(primes):
        shape = [1] * a.ndim
        shape[axis] = len(primes)
        column = np.array(primes, dtype=np.int64).reshape(shape)
        return np.remainder(a, column, out=out)
    if out is not None and out is not a and np.shares_memory(a, out):
        out[...] = residues(a, primes, axis)  # (a view of a: its rows would be overwritten first)
        return out
    in_place = out is a
    if out is None:
        out = np.empty_like(a)
    for k, q in enumerate(primes):
        at = (slice(None),) * axis + (k,)
        x, y = a[at], out[at]
        multiple = np.floor_divide(x, int(q)) if in_place else np.floor_divide(x, int(q), out=y)
        multiple *= int(q)
        np.subtract(x, multiple, out=y)
    return out


_FLAT_RUNS = 512  # an axis followed by fewer states than this (in memory) is moved flat
_SHORT_RUNS = 8  # runs this short are taken back row by row


def move(y: Array, x: Array, ax: int, back: bool, sign: int, start: str = "") -> None:
    """``y`` plus ``sign`` (1 or -1) times ``x`` moved by one along axis ``ax``: each state takes
    the one below it, or above it with ``back``, and a state at the edge nothing moves onto takes
    nothing. With ``start`` ``"x"`` or ``"zero"``, ``y`` (not yet written) starts as ``x`` or as
    zero. Along an inner axis (one followed by fewer than 512 states in memory) slices are runs
    of a few states, each a step of numpy's loop (on a last axis of 3, 4.8 ns a state instead of
    0.4): the whole array is moved flat, by the axis's stride, and what crossed from the edge of
    one run onto the other edge of the next is taken back (for runs of up to 8 states, along the
    rows: numpy's loop would go along each run, at 2 to 4 ns a state of the array for runs of
    2 or 3, against 0.3 to 0.9 ns along the rows). ``y`` and ``x`` must not share memory
    (ValueError): the crossings are taken back from ``x`` after ``y`` is written."""
    if np.may_share_memory(x, y):
        raise ValueError("move needs y and x in memory of their own")
    if x.size == 0:
        return
    op = np.add if sign > 0 else np.subtract
    n = x.shape[ax]
    run = math.prod(x.shape[ax + 1 :])
    flat = run < _FLAT_RUNS and x.flags.c_contiguous and y.flags.c_contiguous
    if flat:
        x, y = x.reshape(-1), y.reshape(-1)
        lo: tuple[slice, ...] = (slice(0, -run),)
        hi: tuple[slice, ...] = (slice(run, None),)
        edge: tuple[slice, ...] = (slice(-run, None) if back else slice(0, run),)
    else:
        lo = (*(slice(None),) * ax, slice(0, -1))
        hi = (*(slice(None),) * ax, slice(1, None))
        edge = (*(slice(None),) * ax, slice(-1, None) if back else slice(0, 1))
    dst, src = (lo, hi) if back else (hi, lo)
    if start == "x":
        op(x[dst], x[src], out=y[dst])
        y[edge] = x[edge]
    elif start == "zero":
        if sign > 0:
            y[dst] = x[src]
        else:
            np.negative(x[src], out=y[dst])
        y[edge] = 0
    else:
        op(y[dst], x[src], out=y[dst])
    if flat:
        y3, x3 = y.reshape(-1, n, run), x.reshape(-1, n, run)
        top, bottom = (slice(0, -1), n - 1), (slice(1, None), 0)  # every run's top edge but the last's; bottom, first's
        crossed, source = (top, bottom) if back else (bottom, top)
        if start == "zero":
            y3[crossed] = 0
            return
        out, taken = y3[crossed], x3[source]
        if run <= _SHORT_RUNS:  # (numpy's loop would go along each run: along the rows instead)
            out, taken = out.T, taken.T
        (np.subtract if sign > 0 else np.add)(out, taken, out=out, order="C")


def bit_pieces(a: Array, bits: int) -> Iterator[Array]:
    """A reduced array (values in [0, 2**31)) in pieces of ``bits`` bits, lowest first, made as
    they are used: piece j times 2 ** (j * bits), summed, is ``a``. A dot product of a piece with
    residues over 2**L states stays inside int64 when ``bits + 31 + L < 63``."""
    mask = (1 << bits) - 1
    shifts = range(0, 31, bits)
    for shift in shifts:
        if shift == 0:
            yield a & mask
        elif shift == shifts[-1]:
            yield a >> shift  # (below 2**(31 - shift), which is at most 2**bits: no mask)
        else:
            yield (a >> shift) & mask


def times(a: Array, w: Array, primes: Sequence[int], axis: int) -> Array:
    """``a * w`` modulo the prime of each index along ``axis`` (as ``residues``), both reduced
    (in [0, prime)), ``w`` broadcast against ``a``. Below 2**31 one product does; for wider
    primes (``WIDE_PRIMES``), ``w`` goes in pieces, highest first, each product and the sum so far
    moved up by a piece kept below 2**62 (Horner's rule), a reduction each."""
    width = max(int(q) for q in primes).bit_length()
    if width <= 31:
        product = a * w
        return residues(product, primes, axis, out=product)
    bits = 61 - width  # (a residue times a piece, and the sum so far moved up by one, below 2**61 each)
    mask = (1 << bits) - 1
    out: Array | None = None
    for shift in reversed(range(0, width, bits)):
        part = a * ((w >> shift) & mask)
        if out is None:
            out = part
        else:
            out <<= bits
            out += part
        out = residues(out, primes, axis, out=out)
    assert out is not None
    return out


def add_scaled(out: Array, a: Array, coef: int) -> None:
    """``out += coef * a``, with no product for a coefficient of 1 or -1."""
    if coef == 1:
        out += a
    elif coef == -1:
        out -= a
    else:
        out += a * coef


def inverses(n: int, primes: Sequence[int] | Array) -> Array:
    """1/n modulo each prime (``n`` not a multiple of any)."""
    return np.array([pow(n, -1, int(q)) for q in primes], dtype=np.int64)


def crt(residues: Array | Sequence[int], primes: Sequence[int]) -> int:
    """The integer in [0, product of primes) with these residues (the primes may include
    ``WRAP``: any moduli prime to each other do)."""
    values = residues.tolist() if isinstance(residues, np.ndarray) else list(residues)
    x, m = 0, 1
    for r, p in zip(values, primes, strict=True):
        t = (int(r) - x) * pow(m, -1, p) % p
        x += m * t
        m *= p
    return x
