"""Learning in a matrix game: how choosers and guessers that adapt would move on a
tournament's meta-game, beside the equilibrium that linprog finds.

Two dynamics on the zero-sum bimatrix (A, -A), the chooser (rows) receiving A, as nashpy
defines them:

- asymmetric replicator dynamics (nashpy's equation, integrated here in log-shares; see
  `replicator`): a population of choosers and one of guessers, each strategy's
  share growing with how much better than average it does against the other population. In a
  zero-sum game the shares circle around an interior equilibrium rather than settle on it;
  their average over time is what comes near it.
- fictitious play: each side best responds to the other's empirical mix so far; the
  empirical mixes converge to an equilibrium in every zero-sum game (Robinson 1951). Ties
  are broken by nashpy at random: drawn here from a fixed seed, so a run repeats.

    d = dynamics(meta_game)          # a MatrixGame (arena.study.results.export)
    print(d.summary()); d.plot("dynamics.png")
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .export import MatrixGame

#: Defaults: long enough for the shares of a small meta-game to show where they go.
TIME = 200.0
STEPS = 2001
ITERATIONS = 2000


@dataclass(frozen=True)
class Dynamics:
    """The shares over time of each side's strategies under both dynamics, and the equilibrium."""

    game: MatrixGame
    times: np.ndarray  # replicator time points
    replicator_rows: np.ndarray  # (times, rows): the choosers' shares
    replicator_columns: np.ndarray  # (times, columns): the guessers' shares
    play_rows: np.ndarray  # (iterations + 1, rows): fictitious play's empirical mix of the chooser
    play_columns: np.ndarray
    value: float
    equilibrium_rows: np.ndarray
    equilibrium_columns: np.ndarray

    def time_average(self) -> tuple[np.ndarray, np.ndarray]:
        """The replicator shares averaged over time (trapezoids): what approaches the equilibrium."""
        dt = np.diff(self.times)[:, None]
        average = lambda shares: ((shares[1:] + shares[:-1]) / 2 * dt).sum(axis=0) / dt.sum()
        return average(self.replicator_rows), average(self.replicator_columns)

    def exploitability(self, rows: np.ndarray, columns: np.ndarray) -> float:
        """How far a pair of mixes is from an equilibrium: each side's gain from best responding."""
        from ...equilibrium import exploitability

        return float(sum(exploitability(self.game.payoff, rows, columns)))

    def summary(self) -> str:
        """Per strategy: the equilibrium's share, fictitious play's last empirical mix and the
        replicator's time average; then how far each pair is from an equilibrium."""
        averages = self.time_average()
        lines = [
            f"{self.game.title}: value {self.value:.4f}; fictitious play ({len(self.play_rows) - 1:,} rounds) "
            f"and replicator dynamics (t = 0..{self.times[-1]:g}, time average)"
        ]
        width = max(len("strategy"), *map(len, self.game.rows + self.game.columns))
        lines.append(f"  {'side':<8} {'strategy':<{width}} {'equilibrium':>11} {'fictitious':>10} {'replicator':>10}")
        for side, names, eq, play, avg in (
            ("chooser", self.game.rows, self.equilibrium_rows, self.play_rows[-1], averages[0]),
            ("guesser", self.game.columns, self.equilibrium_columns, self.play_columns[-1], averages[1]),
        ):
            for k, name in enumerate(names):
                lines.append(f"  {side:<8} {name:<{width}} {eq[k]:>11.3f} {play[k]:>10.3f} {avg[k]:>10.3f}")
        lines.append(
            f"  distance from an equilibrium (exploitability): fictitious play "
            f"{self.exploitability(self.play_rows[-1], self.play_columns[-1]):.4f}, replicator time average "
            f"{self.exploitability(*averages):.4f}"
        )
        return "\n".join(lines)

    def plot(self, path=None):
        """The shares over time, both sides, both dynamics, each beside its equilibrium share
        (dashed), written to `path` (a file name or a binary file object: PNG); with no path,
        the matplotlib Figure (a notebook shows it)."""
        import matplotlib  # lazy: heavy

        if path is not None:  # a file: no screen needed (a notebook keeps its own backend)
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # lazy: heavy

        fig, axes = plt.subplots(2, 2, figsize=(11, 6.4), sharey=True)
        rounds = np.arange(len(self.play_rows))
        panels = (
            (
                axes[0, 0],
                self.times,
                self.replicator_rows,
                self.game.rows,
                self.equilibrium_rows,
                "choosers: replicator dynamics",
                "time",
            ),
            (
                axes[0, 1],
                self.times,
                self.replicator_columns,
                self.game.columns,
                self.equilibrium_columns,
                "guessers: replicator dynamics",
                "time",
            ),
            (
                axes[1, 0],
                rounds,
                self.play_rows,
                self.game.rows,
                self.equilibrium_rows,
                "choosers: fictitious play (empirical mix)",
                "round",
            ),
            (
                axes[1, 1],
                rounds,
                self.play_columns,
                self.game.columns,
                self.equilibrium_columns,
                "guessers: fictitious play (empirical mix)",
                "round",
            ),
        )
        colours = plt.get_cmap("tab10")
        for ax, x, shares, names, eq, title, xlabel in panels:
            for k, name in enumerate(names):
                ax.plot(x, shares[:, k], color=colours(k % 10), lw=1.2, label=name)
                ax.axhline(eq[k], color=colours(k % 10), ls="--", lw=0.9)
            ax.set_title(title, fontsize=9)
            ax.set_xlabel(xlabel, fontsize=8)
            ax.set_ylim(-0.02, 1.02)
            ax.tick_params(labelsize=7)
        for ax in axes[:, 0]:
            ax.set_ylabel("share (dashed: equilibrium)", fontsize=8)
        axes[0, 0].legend(fontsize=7, loc="upper right")
        axes[0, 1].legend(fontsize=7, loc="upper right")
        fig.suptitle(f"{self.game.title}: value {self.value:.3f}", fontsize=10)
        fig.tight_layout()
        if path is None:
            return fig
        fig.savefig(path, dpi=110, format="png")
        plt.close(fig)
        return None


def dynamics(
    game: MatrixGame, time: float = TIME, steps: int = STEPS, iterations: int = ITERATIONS, seed: int = 0
) -> Dynamics:
    """Replicator dynamics from uniform shares over t = 0..`time`, and `iterations` rounds of
    fictitious play (ties broken from `seed`), on `game`, with its linprog equilibrium."""
    import nashpy  # lazy: heavy

    from ...equilibrium import solve_matrix_game

    A = game.payoff
    # replicator shares move with payoff differences: scale them to about 1 so that `time`
    # means the same on every game (a positive factor changes the speed, not the path)
    spread = float(A.max() - A.min()) or 1.0
    bimatrix = nashpy.Game(A / spread, -A / spread)
    times = np.linspace(0.0, time, steps)
    xs, ys = replicator(A / spread, times)
    saved = np.random.get_state()
    np.random.seed(seed)  # nashpy breaks fictitious play's ties with numpy's global generator
    try:
        counts = list(bimatrix.fictitious_play(iterations=iterations))
    finally:
        np.random.set_state(saved)
    rows, columns = _mixes([c[0] for c in counts]), _mixes([c[1] for c in counts])
    solution = solve_matrix_game(A)
    return Dynamics(
        game, times, xs, ys, rows, columns, solution.value, np.asarray(solution.row), np.asarray(solution.column)
    )


def _mixes(plays: list) -> np.ndarray:
    """Play counts as empirical mixes (the first, before any play, uniform)."""
    counts = np.array(plays, dtype=np.float64)
    totals = counts.sum(axis=1, keepdims=True)
    uniform = np.full(counts.shape[1], 1 / counts.shape[1])
    return np.where(totals > 0, counts / np.where(totals > 0, totals, 1), uniform)


def replicator(A: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The asymmetric replicator dynamics of the zero-sum game (A, -A) from uniform shares:
    the shares (times x rows, times x columns) at `times`.

    The equation is nashpy's (`get_derivative_of_asymmetric_fitness`: dx_i/dt = x_i (f_i - mean
    f)), integrated in log-shares: with x = softmax(u), du/dt = f gives exactly the same path,
    and the shares stay on the simplex by construction. nashpy's own integration (odeint on the
    shares) leaves the simplex on these games: shares of nan, or all 0, by t = 50 on the demo
    tournament's meta-games."""
    from scipy.integrate import solve_ivp  # lazy: heavy

    m, n = A.shape
    flow = lambda t, z: np.concatenate((A @ softmax(z[m:]), -(softmax(z[:m]) @ A)))
    solved = solve_ivp(
        flow, (times[0], times[-1]), np.zeros(m + n), t_eval=times, method="DOP853", rtol=1e-9, atol=1e-9
    )
    if not solved.success:
        raise RuntimeError(f"the replicator dynamics did not integrate: {solved.message}")
    z = solved.y.T
    return softmax(z[:, :m]), softmax(z[:, m:])


def softmax(z: np.ndarray) -> np.ndarray:
    """exp(z) normalised along the last axis (shifted first: no overflow)."""
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def plot_path(directory: str | Path, game: str) -> Path:
    slug = "".join(c if c.isalnum() else "-" for c in game).strip("-")
    return Path(directory) / f"dynamics-{slug}.png"
