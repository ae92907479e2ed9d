"""An independent check of a Mastermind worst case: can every code of P pegs and C colours be
found within K guesses? Written apart from arena's search (arena/optimal/search/depth.py,
`fits`), sharing none of its code, not even the feedback table, to check what that search
proves, such as MM(5,6) needing 6 guesses (`arena optimal mastermind:pegs=5 --max 5`).

    python experiments/worst_case_check.py --pegs 5 --colors 6 --guesses 5   # MM(5,6): no
    python experiments/worst_case_check.py --pegs 4 --colors 6 --guesses 5   # Knuth's 4x6: yes

The method, every step of it plain:

- the feedback of guess g on secret s is (black, white), black the positions alike, white the
  colours in common (the sum over colours of the lesser count) less black; it is coded as
  black * (P + 1) + white, and P * (P + 1) is the hit;
- a set S of codes still possible *fits* in k guesses when |S| <= 1 and k >= |S|, or when
  k >= 2 and some guess g (any code, consistent or not) leaves every class of S under g,
  other than the hit, a set that fits in k - 1 guesses;
- a set that fits in k guesses holds at most cap(k) codes, cap(1) = 1 and cap(k) = 1 +
  R cap(k - 1), R the number of feedbacks other than the hit (a guess finds at most one code,
  its own, and splits the others into at most R classes): a class bigger than cap(k - 1)
  refuses its guess at once;
- two guesses left: S fits when some guess gives every code of S a different feedback;
- at the root only, the first guess is one of a code per partition of P into at most C parts
  (00000, 00001, 00011, ...): permuting the colours, or the positions, of the guess and of
  every secret alike keeps every feedback and maps the set of all codes onto itself, so every
  first guess does exactly what the code of its pattern does. Below the root every one of the
  C^P codes is tried.

It prints, for each first guess, whether it fits, and which class refuted it (the first class,
largest first, that does not fit in K - 1 guesses).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np


def all_codes(pegs: int, colors: int) -> np.ndarray:
    """Every code, as rows of colour numbers, in lexicographic order."""
    return np.array(list(itertools.product(range(colors), repeat=pegs)), dtype=np.int8)


def feedback_table(codes: np.ndarray, colors: int) -> np.ndarray:
    """table[g, s]: the feedback of guess g on secret s, black * (P + 1) + white."""
    pegs = codes.shape[1]
    counts = np.stack([(codes == c).sum(axis=1) for c in range(colors)], axis=1)
    table = np.empty((len(codes), len(codes)), dtype=np.int16)
    for g in range(len(codes)):
        black = (codes == codes[g]).sum(axis=1)
        common = np.minimum(counts, counts[g]).sum(axis=1)
        table[g] = black * (pegs + 1) + (common - black)
    return table


def pattern_guesses(pegs: int, colors: int) -> list[tuple[int, ...]]:
    """One first guess per partition of the pegs into at most `colors` parts, largest part
    first: (0, 0, 0, 1, 1) for 3 + 2."""
    out = []

    def parts(left: int, most: int, so_far: list[int]) -> None:
        if left == 0:
            if len(so_far) <= colors:
                out.append(tuple(c for c, size in enumerate(so_far) for _ in range(size)))
            return
        for size in range(min(left, most), 0, -1):
            parts(left - size, size, [*so_far, size])

    parts(pegs, pegs, [])
    return out


class Check:
    """fits(S, k) over one game's feedback table, remembered per set and k."""

    def __init__(self, table: np.ndarray, hit: int):
        self.table, self.hit = table, hit
        self.kinds = int(table.max()) + 1
        others = len(np.unique(table)) - 1  # the feedbacks other than the hit
        self.cap = [0, 1]
        for _ in range(2, 12):
            self.cap.append(1 + others * self.cap[-1])
        self.memo: dict[tuple[bytes, int], bool] = {}
        self.sets = 0

    def classes(self, guess: int, S: np.ndarray) -> list[np.ndarray]:
        """The classes of S under `guess` other than the hit, largest first."""
        replies = self.table[guess, S]
        out = [S[replies == r] for r in np.unique(replies) if r != self.hit]
        return sorted(out, key=len, reverse=True)

    def fits(self, S: np.ndarray, k: int) -> bool:
        n = len(S)
        if n <= 1:
            return k >= n
        if k <= 1 or n > self.cap[k]:
            return False
        key = (S.tobytes(), k)
        if key not in self.memo:
            self.sets += 1
            self.memo[key] = self._fits(S, k)
        return self.memo[key]

    def _fits(self, S: np.ndarray, k: int) -> bool:
        replies = self.table[:, S]
        if k == 2:  # some guess tells every code of S apart
            ordered = np.sort(replies, axis=1)
            return bool((np.diff(ordered, axis=1) != 0).all(axis=1).any())
        guesses = len(self.table)
        at = replies.astype(np.int64) + self.kinds * np.arange(guesses)[:, None]
        counts = np.bincount(at.ravel(), minlength=self.kinds * guesses).reshape(guesses, self.kinds)
        counts[:, self.hit] = 0
        largest = counts.max(axis=1)
        room = (largest < len(S)) & (largest <= self.cap[k - 1])
        for guess in np.flatnonzero(room)[np.argsort(largest[room], kind="stable")]:
            if all(self.fits(c, k - 1) for c in self.classes(int(guess), S)):
                return True
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", type=int, default=5)
    parser.add_argument("--colors", type=int, default=6)
    parser.add_argument("--guesses", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    codes = all_codes(args.pegs, args.colors)
    check = Check(feedback_table(codes, args.colors), args.pegs * (args.pegs + 1))
    index = {tuple(int(x) for x in code): i for i, code in enumerate(codes)}
    S = np.arange(len(codes))
    print(f"{args.pegs} pegs, {args.colors} colours: {len(codes):,} codes; within {args.guesses} guesses?", flush=True)
    fits_any = False
    for pattern in pattern_guesses(args.pegs, args.colors):
        guess = index[pattern]
        refuted = None
        for c in check.classes(guess, S):
            if not check.fits(c, args.guesses - 1):
                refuted = c
                break
        word = "".join(str(x + 1) for x in pattern)
        if refuted is None:
            fits_any = True
            print(f"  first guess {word}: fits", flush=True)
            break
        reply = int(check.table[guess, refuted[0]])
        black, white = divmod(reply, args.pegs + 1)
        print(
            f"  first guess {word}: no (its class {black},{white} of {len(refuted):,} codes does not fit in "
            f"{args.guesses - 1}; {check.sets:,} sets checked, {time.perf_counter() - started:.1f} s)",
            flush=True,
        )
    verdict = "yes" if fits_any else "no"
    print(f"every code within {args.guesses} guesses: {verdict} ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
