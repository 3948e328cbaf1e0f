"""How far a share measured on a few dozen questions can be trusted, and whether a dev-test gap is
more than chance.

Our golden halves hold 40-230 questions per figure: 31 of 41 unanswerable questions refused is
75.6%, but any true rate from about 61% to 86% gives that count as readily. Without the interval, a
gap of ten points between dev and test reads as tuning when it may be the draw of questions, and a
target of 90% reads as missed or met on evidence that cannot tell.

- `wilson`: the Wilson score interval of one share (good coverage at small n and at shares near 0
  or 1, where the normal approximation breaks down; Brown, Cai & DasGupta 2001).
- `newcombe`: the interval of a difference of two independent shares (Newcombe 1998, method 10:
  the hybrid score interval built from each share's Wilson interval). Dev and test hold different
  questions, so they are independent samples. A gap whose interval excludes 0 is beyond chance at
  that level: that is where a change was fitted to dev rather than learned.
- `sign_test`: whether one setting gets more of the same questions right than another by more than
  chance (the exact two-sided sign test over the questions where the two differ, McNemar's exact
  test): two settings asked the same questions are paired samples, not independent ones.
"""

from __future__ import annotations

import math

Z95 = 1.959964  # two-sided 95%


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of successes / n (None without a question)."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float] | None:
    """The interval of k1/n1 - k2/n2 (None when either side has no question)."""
    first, second = wilson(k1, n1, z), wilson(k2, n2, z)
    if first is None or second is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = first, second
    difference = p1 - p2
    return (difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def rounded(interval: tuple[float, float] | None, digits: int = 4) -> list[float] | None:
    return None if interval is None else [round(interval[0], digits), round(interval[1], digits)]


def sign_test(better: int, worse: int) -> float:
    """The two-sided p-value of `better` questions gained against `worse` lost, each question where two
    settings differ being a fair coin under the hypothesis that neither is better (1.0: none differ)."""
    if better < 0 or worse < 0:
        raise ValueError(f"{better} gained, {worse} lost")
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)
