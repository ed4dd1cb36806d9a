"""A group's terms multiplied out into monomials over the tracked players' counts.

The count folding players (``folds``) takes a group's inclusion–exclusion terms one by one, each
card's factor a few moves of a box. Under requirements the terms cancel once multiplied out: on
the jokers game's public view after event 35, a book under four requirements has 16 terms of 5
factors (264 moves of its box) and their sum 8 monomials; on the standard game's after event 64,
one under five requirements has 32 terms and their sum one monomial. A monomial is one shifted
copy of the box, and it reads the box on the way in, before any card has widened it. So for such
a group the way forward and the way back go monomial by monomial (``folds._Step.multiplied``
chooses per group by the work of each way).

Multiplying out, terms are merged as soon as the factors still to come are the same in each:
their rows then add up (and cancel) at once. The kinds of card are taken in the order that
merges the most terms soonest. Coefficients are exact integers in int64: a product that could
pass ``BOUND`` is not multiplied out (None). (Copying residues times the coefficients into the
box needs far less: the fold goes monomial by monomial only where the sum of the coefficients'
sizes is below 2**31, and takes a wide prime only where that sum times it is below 2**62.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.int64]
BOUND = 1 << 52  # multiplying out stays exact in int64 below this (the copies of the box need less: ``folds``)


@dataclass(frozen=True)
class Factor:
    """One kind of card's factor in each term: whether it is in the complement form (``X``
    less the x of the players it singles out) per term, and per term and axis whether it singles
    out that axis's player."""

    complement: npt.NDArray[np.bool_]  # (terms,)
    singles: npt.NDArray[np.bool_]  # (terms, axes)

    def ids(self) -> npt.NDArray[np.intp]:
        """Per term, a number for the factor: the same in two terms when the factor is."""
        bits = np.concatenate([self.complement[:, None], self.singles], axis=1)
        return np.unique(bits, axis=0, return_inverse=True)[1].reshape(-1)


@dataclass(frozen=True)
class Sum:
    """Terms multiplied out and summed per mark (``expand``): per row its mark, its exponents
    (one per axis) and its coefficient. No two rows have the same mark and exponents, and none
    has coefficient zero."""

    mark: npt.NDArray[np.intp]
    exps: npt.NDArray[np.int64]  # (rows, axes)
    coefs: Array

    def total(self, marks: npt.NDArray[np.bool_] | None = None) -> tuple[npt.NDArray[np.int64], Array]:
        """The sum of the rows of the chosen marks (every row when None): its monomials'
        exponents and coefficients, none zero."""
        rows = slice(None) if marks is None else marks[self.mark]
        exps, coefs = self.exps[rows], self.coefs[rows]
        if not len(coefs):
            return exps, coefs
        if exps.shape[1]:
            codes = np.ravel_multi_index(tuple(exps.T), tuple(int(x) + 1 for x in exps.max(axis=0)))
        else:  # (no axis: one monomial)
            codes = np.zeros(len(coefs), dtype=np.int64)
        codes, firsts, summed = _merged(codes, coefs)
        return exps[firsts], summed


def _merged(codes: Array, values: Array) -> tuple[Array, npt.NDArray[np.intp], Array]:
    """Rows with the same code summed: the codes, the first row of each, the sums (none zero)."""
    if not len(codes):
        return codes, np.zeros(0, dtype=np.intp), values
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    summed = np.add.reduceat(values[order], starts)
    keep = summed != 0
    return codes[starts[keep]], order[starts[keep]], summed[keep]


def expand(
    coefs: Sequence[int],
    kinds: Sequence[tuple[Factor, int]],
    limits: Sequence[int],
    marks: npt.NDArray[np.intp] | None = None,
) -> Sum | None:
    """The sum of each term's coefficient times the product of its factors (a factor per kind
    of card, to the power of how many cards the kind has), multiplied out, summed per mark of
    the terms (one sum when None), the exponent of each axis below its limit (the higher powers
    reach no state of the box: cut off as they come). None when a coefficient could reach
    ``BOUND``."""
    worst = sum(abs(c) for c in coefs)
    for f, count in kinds:
        worst *= (1 + int(f.singles.sum(axis=1).max(initial=0))) ** count
    if worst >= BOUND:
        return None
    terms, axes = len(coefs), len(limits)
    ids = [f.ids().tolist() for f, _ in kinds]
    mark = np.zeros(terms, dtype=np.intp) if marks is None else marks
    marked = mark.tolist()
    top = np.array(limits, dtype=np.int64)
    stride = np.array([math.prod(limits[d + 1 :]) for d in range(axes)], dtype=np.int64)
    size = math.prod(limits)
    left = [k for k, (_, count) in enumerate(kinds) if count]

    def classes(left: list[int]) -> tuple[list[int], list[int]]:
        """Per term its class, the terms whose factors still to come (and mark) are the same;
        and per class a term of it."""
        seen: dict[tuple[int, ...], int] = {}
        cls: list[int] = []
        rep: list[int] = []
        for t in range(terms):
            key = (marked[t], *(ids[k][t] for k in left))
            if key not in seen:
                seen[key] = len(rep)
                rep.append(t)
            cls.append(seen[key])
        return cls, rep

    cls, reps = classes(left)
    rep = np.array(reps, dtype=np.intp)
    # Rows: a class, exponents, a code (class * size + exponents in mixed radix) and a value.
    codes, firsts, values = _merged(np.array(cls, dtype=np.int64) * size, np.array(coefs, dtype=np.int64))
    exps = np.zeros((len(values), axes), dtype=np.int64)
    while left and len(values):
        # The kind whose factor, once taken, leaves the fewest classes.
        k = min(left, key=lambda k: len(classes([x for x in left if x != k])[1]))
        f, count = kinds[k]
        for _ in range(count):
            terms_of = rep[codes // size]
            comp = f.complement[terms_of]
            singles = f.singles[terms_of]
            parts = [(exps[comp], values[comp], codes[comp])]  # (X: no tracked count moves)
            signed = np.where(comp, -values, values)
            for d in np.flatnonzero(singles.any(axis=0)):
                sel = singles[:, d] & (exps[:, d] + 1 < top[d])
                if sel.any():
                    moved = exps[sel]
                    moved[:, d] += 1
                    parts.append((moved, signed[sel], codes[sel] + stride[d]))
            every = np.concatenate([p[2] for p in parts])
            codes, firsts, values = _merged(every, np.concatenate([p[1] for p in parts]))
            exps = np.concatenate([p[0] for p in parts])[firsts]
        left.remove(k)
        # Each class joins the class its terms are in now that fewer factors are to come.
        cls, reps = classes(left)
        joins = np.array(cls, dtype=np.int64)[rep]
        codes, firsts, values = _merged(joins[codes // size] * size + codes % size, values)
        exps = exps[firsts]
        rep = np.array(reps, dtype=np.intp)
    return Sum(mark[rep[codes // size]], exps, values)


def shifted_work(exps: npt.NDArray[np.int64], inner: Sequence[int], outer: Sequence[int]) -> int:
    """The states all the monomials' shifted copies touch (per state of the axes before the
    counts): forward, each copies the box ``inner`` up by its exponents into ``outer``, as far
    as it fits; back, each reads ``outer`` down by them into ``inner``: the same overlap."""
    if not len(exps):
        return 0
    spans = np.minimum(np.clip(np.array(outer, dtype=np.int64) - exps, 0, None), np.array(inner, dtype=np.int64))
    return int(np.prod(spans, axis=1).sum())


def coefficient_sum(coefs: Array) -> int:
    """The sum of the coefficients' sizes: residues below 2**k times it stay inside int64 when it
    is below 2**(62 - k)."""
    return int(np.abs(coefs).sum()) if len(coefs) else 0
