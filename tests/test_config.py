"""Unit tests of `arena run` configs: parse_config (checking and expanding into cells) and agrees()."""

from __future__ import annotations

import pytest

from arena.core.errors import ArenaError
from arena.study.config import DEFAULT_TOLERANCE, Cell, _check_specs, _range, agrees, parse_config
from arena.study.tournament.run import run_cell

SMALL = "mastermind:pegs=2,colors=3"  # 9 codes: lowest needs 24 guesses in all (mean 2.67, worst 4)


def error(data: dict, path: str = "cfg.toml") -> str:
    """The message of a config's mistake: parse_config checks syntax, _check_specs (as load_config
    does) the agents' names."""
    with pytest.raises(ArenaError) as info:
        _check_specs(parse_config(data, path))
    return str(info.value)


# --- defaults ----------------------------------------------------------------------------------


def test_single_cell_defaults():
    config = parse_config({"game": "mastermind", "guesser": "lowest"}, "some/dir/strategies.toml")
    assert config.title == "strategies"  # the file's stem
    assert config.path == "some/dir/strategies.toml"
    assert config.cells == [Cell("lowest", "mastermind", "lowest", "uniform", 1, 0, {}, {}, "")]


def test_title_seed_repeat_flow_into_cells():
    config = parse_config(
        {
            "title": "T",
            "seed": 7,
            "repeat": 4,
            "game": "mastermind",
            "guesser": "random",
            "rows": [{"guesser": "random"}, {"guesser": "random", "seed": 9, "repeat": 2}],
        }
    )
    assert config.title == "T"
    assert [(c.seed, c.repeat) for c in config.cells] == [(7, 4), (9, 2)]
    grid = parse_config({"seed": 3, "repeat": 5, "game": "mastermind", "guesser": "random"})
    assert [(c.seed, c.repeat) for c in grid.cells] == [(3, 5)]


def test_row_fields():
    config = parse_config(
        {
            "game": "mastermind",
            "rows": [
                {
                    "label": "LC",
                    "guesser": "lowest",
                    "published": {"total": 7471, "mean": "5.7-5.8"},
                    "tolerance": {"mean": 0.01},
                    "note": "n",
                },
                {"guesser": "knuth", "game": SMALL, "chooser": "uniform"},
            ],
        }
    )
    first, second = config.cells
    assert first.label == "LC" and first.game == "mastermind" and first.guesser == "lowest"
    assert first.published == {"total": 7471, "mean": "5.7-5.8"}
    assert first.tolerance == {"mean": 0.01}
    assert first.note == "n"
    assert second.label == "knuth"  # the guesser spec when no label is given
    assert second.game == SMALL and second.chooser == "uniform"
    assert second.published == {} and second.tolerance == {}


def test_default_tolerances():
    assert DEFAULT_TOLERANCE == {"total": 0, "mean": 0.005, "max": 0, "misses": 0.005, "misses_max": 0, "lost": 0}


def test_relative_tolerances_and_lost_figures():
    assert agrees(11612, 11398, "5%") and not agrees(12100, 11398, "5%")
    config = parse_config(
        {
            "game": "hangman:length=4,first=200",
            "rows": [
                {"guesser": "max-frequency", "published": {"lost6": 3, "misses": 2.0}, "tolerance": {"lost6": "50%"}}
            ],
        }
    )
    assert config.cells[0].published == {"lost6": 3, "misses": 2.0}
    assert "unknown figure 'lost'" in error({"game": "hangman", "rows": [{"guesser": "x", "published": {"lost": 3}}]})
    assert "percentage" in error({"game": "hangman", "rows": [{"guesser": "x", "tolerance": {"lost6": "5"}}]})


# --- grid and rows -----------------------------------------------------------------------------


def test_grid_is_a_product_in_order():
    config = parse_config({"games": ["mastermind", SMALL], "guessers": ["lowest", "knuth", "random"]})
    assert [(c.game, c.guesser) for c in config.cells] == [
        ("mastermind", "lowest"),
        ("mastermind", "knuth"),
        ("mastermind", "random"),
        (SMALL, "lowest"),
        (SMALL, "knuth"),
        (SMALL, "random"),
    ]
    assert all(c.chooser == "uniform" and c.published == {} for c in config.cells)


def test_grid_labels_from_tables():
    config = parse_config(
        {
            "games": [{"spec": SMALL, "label": "tiny"}],
            "guessers": [{"spec": "minimax:pool=all", "label": "Knuth-ish"}, "lowest", {"spec": "random"}],
        }
    )
    assert [(c.label, c.guesser) for c in config.cells] == [
        ("Knuth-ish", "minimax:pool=all"),
        ("lowest", "lowest"),
        ("random", "random"),
    ]
    assert all(c.game == SMALL for c in config.cells)  # a game's label does not replace its spec


def test_single_string_plural_is_accepted():
    config = parse_config({"games": SMALL, "guessers": "lowest"})
    assert [(c.game, c.guesser) for c in config.cells] == [(SMALL, "lowest")]


def test_rows_take_single_top_level_entries_as_defaults():
    config = parse_config({"games": [SMALL], "guessers": ["knuth"], "rows": [{"label": "a"}, {"guesser": "lowest"}]})
    assert [(c.label, c.game, c.guesser) for c in config.cells] == [("a", SMALL, "knuth"), ("lowest", SMALL, "lowest")]


def test_rows_need_their_own_spec_when_the_top_level_lists_several():
    data = {"games": ["mastermind", SMALL], "guesser": "lowest", "rows": [{"label": "x"}]}
    assert "list of games makes a grid" in error(data)
    data = {"game": "mastermind", "guessers": ["lowest"], "rows": [{"label": "x"}]}
    config = parse_config(data)  # a one-entry list is just a default
    assert [(c.game, c.guesser) for c in config.cells] == [("mastermind", "lowest")]


def test_a_grid_beside_rows_is_refused_not_dropped():
    message = error({"game": SMALL, "guessers": ["lowest", "knuth"], "rows": [{"guesser": "random"}]})
    assert "list of guessers makes a grid" in message
    assert "list of games makes a grid" in error(
        {"games": ["mastermind", SMALL], "guesser": "lowest", "rows": [{"game": SMALL}]}
    )


def test_rows_without_game_or_grid():
    assert "no rows and no games" in error({})
    assert "no rows and no guessers" in error({"game": "mastermind"})
    assert "no game" in error({"rows": [{"guesser": "lowest"}]})


@pytest.mark.parametrize("single, plural", [("game", "games"), ("guesser", "guessers"), ("chooser", "choosers")])
def test_give_single_or_plural_not_both(single, plural):
    data = {"game": "mastermind", "guesser": "lowest", single: "uniform", plural: ["uniform"]}
    assert error(data) == f"cfg.toml: give {single} or {plural}, not both"


# --- errors name their key ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, needles",
    [
        ({"gmae": "x", "game": "mastermind", "guesser": "lowest"}, ["unknown key 'gmae'", "valid keys:", "guessers"]),
        ({"seed": -1, "game": "mastermind", "guesser": "lowest"}, ["seed", ">= 0", "-1"]),
        ({"seed": True, "game": "mastermind", "guesser": "lowest"}, ["seed", "True"]),
        ({"seed": 1.5, "game": "mastermind", "guesser": "lowest"}, ["seed", "1.5"]),
        ({"repeat": "x", "game": "mastermind", "guesser": "lowest"}, ["repeat", ">= 1", "'x'"]),
        ({"repeat": 0, "game": "mastermind", "guesser": "lowest"}, ["repeat", ">= 1"]),
        ({"games": [], "guesser": "lowest"}, ["games", "is empty"]),
        ({"games": [3], "guesser": "lowest"}, ["games[0]", "spec string"]),
        ({"game": "mastermind", "guessers": ["lowest", {"spec": "knuth", "lbl": "K"}]}, ["guessers[1]", "'lbl'"]),
        ({"game": "mastermind", "guessers": [{"label": "K"}]}, ["guessers[0]", "spec string"]),
        ({"game": "mastermind", "rows": 3}, ["rows must be an array of tables"]),
        ({"game": "mastermind", "rows": [{"guesser": "lowest", "publishd": {}}]}, ["rows[0]", "'publishd'"]),
        ({"game": "mastermind", "rows": [{"guesser": 3}]}, ["rows[0].guesser", "spec string"]),
        (
            {"game": "mastermind", "rows": [{"guesser": "lowest"}, {"guesser": "lowest", "repeat": 0}]},
            ["rows[1].repeat", ">= 1"],
        ),
        ({"game": "mastermind", "rows": [{"guesser": "lowest", "seed": "s"}]}, ["rows[0].seed"]),
        ({"game": "mastermind", "rows": [{"guesser": "lowest", "published": 5}]}, ["rows[0].published", "a table"]),
        (
            {"game": "mastermind", "rows": [{"guesser": "lowest", "published": {"mean": "abc"}}]},
            ["rows[0].published.mean", "'abc'", "7.32-7.38"],
        ),
        (
            {"game": "mastermind", "rows": [{"guesser": "lowest", "published": {"mean": True}}]},
            ["rows[0].published.mean", "True"],
        ),
        (
            {"game": "mastermind", "rows": [{"guesser": "lowest", "published": {"median": 5}}]},
            ["rows[0].published", "'median'", "total, mean, max"],
        ),
        (
            {"game": "mastermind", "rows": [{"guesser": "lowest", "tolerance": {"mean": "0.1-0.2"}}]},
            ["rows[0].tolerance.mean", "a number"],
        ),
        ({"game": "mastermind", "guesser": "lowest", "chooser": "adversary"}, ["'adversary'", "uniform"]),
    ],
)
def test_errors_name_the_key(data, needles):
    message = error(data)
    assert message.startswith("cfg.toml: ")
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"


def test_published_ranges_are_accepted():
    config = parse_config(
        {
            "game": "mastermind",
            "rows": [
                {"guesser": "random", "published": {"mean": "7.32-7.38", "max": "16 – 18", "total": "9,400-9,600"}}
            ],
        }
    )
    assert config.cells[0].published == {"mean": "7.32-7.38", "max": "16 – 18", "total": "9,400-9,600"}


def test_malformed_range_is_an_arena_error():
    error({"game": "mastermind", "rows": [{"guesser": "lowest", "published": {"mean": "7.3.2-8"}}]})


# --- ranges and agrees() -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("7.32-7.38", (7.32, 7.38)),
        (" 7.32 - 7.38 ", (7.32, 7.38)),
        ("16–18", (16.0, 18.0)),
        ("9,400-9,600", (9400.0, 9600.0)),
        ("abc", None),
        ("7.32", None),
        ("-7", None),
        ("7.32-", None),
    ],
)
def test_range(text, expected):
    assert _range(text) == expected


@pytest.mark.parametrize(
    "ours, published, tolerance, expected",
    [
        (5801, 5801, 0, True),
        (5801, 5800, 0, False),
        (5801.0, 5800, 1, True),
        (4.47608, 4.48, 0.005, True),
        (4.47608, 4.47, 0.005, False),
        (4.485, 4.48, 0.005, True),  # the boundary, despite float rounding
        (4.4751, 4.48, 0.005, True),
        (4.4749, 4.48, 0.005, False),
        (7.35, "7.32-7.38", 0, True),
        (7.32, "7.32-7.38", 0, True),  # ranges are inclusive
        (7.38, "7.32-7.38", 0, True),
        (7.39, "7.32-7.38", 0, False),
        (7.31, "7.32-7.38", 0, False),
        (7.39, "7.32-7.38", 0.02, True),
        (19, "16-18", 3, True),
        (21, "16-18", 3, True),
        (22, "16-18", 3, False),
        (13, "16-18", 3, True),
        (12, "16-18", 3, False),
        (9500, "9,400-9,600", 0, True),
    ],
)
def test_agrees(ours, published, tolerance, expected):
    assert agrees(ours, published, tolerance) is expected


# --- run_cell uses the default tolerances ------------------------------------------------------


@pytest.mark.parametrize(
    "published, tolerance, expected",
    [
        ({}, {}, None),
        ({"total": 24, "max": 4}, {}, True),
        ({"total": 23}, {}, False),
        ({"total": 23}, {"total": 1}, True),
        ({"mean": 2.67}, {}, True),  # 24/9 = 2.6667, within the default 0.005
        ({"mean": 2.66}, {}, False),
        ({"mean": 2.66}, {"mean": 0.01}, True),
        ({"mean": "2.6-2.7", "total": "20-30"}, {}, True),
        ({"total": 24, "mean": 2.5}, {}, False),  # every figure must agree
    ],
)
def test_run_cell_verdicts(published, tolerance, expected):
    result = run_cell(Cell("lowest", SMALL, "lowest", published=published, tolerance=tolerance))
    assert result.ours["total"] == 24 and result.ours["max"] == 4
    assert result.ours["mean"] == pytest.approx(24 / 9)
    assert result.agree is expected


def test_reversed_ranges_and_negative_tolerances_are_refused():
    from arena.study.config import _range

    assert _range("3-2") is None and _range("7.3.2-8") is None and _range("2-3") == (2.0, 3.0)
    assert "tolerance.mean" in error({"game": "mastermind", "rows": [{"guesser": "lowest", "tolerance": {"mean": -1}}]})


def test_load_config_takes_the_tables_as_a_dict(tmp_path):
    from arena.core.errors import ArenaTypeError
    from arena.study.config import load_config

    tables = {"games": ["mastermind:pegs=2,colors=3"], "choosers": ["uniform", "evil"], "guessers": ["knuth"]}
    path = tmp_path / "c.toml"
    path.write_text('games = ["mastermind:pegs=2,colors=3"]\nchoosers = ["uniform", "evil"]\nguessers = ["knuth"]\n')
    from_dict, from_file = load_config(tables), load_config(path)
    assert from_dict.cells == from_file.cells and from_dict.text == load_config(dict(reversed(tables.items()))).text
    with pytest.raises(ArenaError, match="unknown key 'gams'; did you mean 'games'"):
        load_config({"gams": ["mastermind"]})
    with pytest.raises(ArenaError, match="TOML values only"):
        load_config({"games": {1, 2}})
    with pytest.raises(ArenaTypeError, match="a TOML file's path or the config as a dict, got int"):
        load_config(5)


def test_a_run_of_a_dict_config_is_read_back_from_its_store(tmp_path):
    from arena.study.config import load_config
    from arena.study.results.report import Report
    from arena.study.tournament.run import run_config

    tables = {"games": ["mastermind:pegs=2,colors=3"], "choosers": ["uniform", "evil"], "guessers": ["knuth", "lowest"]}
    ran = run_config(load_config(tables), out=str(tmp_path / "run"))
    read = Report.from_dir(tmp_path / "run")
    solved = read.meta_games()  # solved when asked, with no summary first
    assert list(solved) == ["mastermind:pegs=2,colors=3"] and solved["mastermind:pegs=2,colors=3"].solved
    assert read.meta_game_solution("mastermind:pegs=2,colors=3")["choosers"].keys() == {"uniform", "evil"}
    assert read.summary() == ran.summary() and "meta-game" in read.summary()


def test_ties_share_a_rank_and_the_guessers_are_ranked_across_games_and_choosers():
    from arena.study.config import load_config
    from arena.study.tournament.run import run_config

    tables = {
        "games": ["mastermind:pegs=2,colors=3", "jotto:first=30"],
        "choosers": ["uniform", "evil"],
        "guessers": ["knuth", "entropy", "lowest"],
    }
    report = run_config(load_config(tables))
    ranks = {(r["game"], r["chooser"], r["guesser"]): (r["mean"], r["rank"]) for r in report.ranking()}
    assert ranks["jotto:first=30", "evil", "knuth"] == ranks["jotto:first=30", "evil", "entropy"] == (4.0, 1)
    assert ranks["jotto:first=30", "evil", "lowest"] == (5.0, 3)  # after two tied for first: third
    assert ranks["mastermind:pegs=2,colors=3", "uniform", "knuth"][1] == 2
    assert ranks["mastermind:pegs=2,colors=3", "uniform", "lowest"][1] == 2
    overall = report.overall_ranking()
    assert [(r["guesser"], r["mean_rank"], r["first"], r["cells"]) for r in overall] == [
        ("entropy", 1.0, 4, 4),
        ("knuth", 1.75, 1, 4),
        ("lowest", 2.5, 0, 4),
    ]


@pytest.mark.parametrize(
    "data, needle",
    [
        (  # the reproduction: row "x" mixed entropy's cells with lowest's worst secret
            {"guessers": [{"spec": "lowest", "label": "x"}, {"spec": "entropy", "label": "x"}]},
            "guessers[1]: 'lowest' and 'entropy' have the same label 'x'",
        ),
        (
            {"guesser": "lowest", "choosers": [{"spec": "uniform", "label": "c"}, {"spec": "evil", "label": "c"}]},
            "choosers[1]: 'uniform' and 'evil' have the same label 'c'",
        ),
        ({"guessers": ["lowest", "knuth", "lowest"]}, "guessers[2]: 'lowest' is listed twice (as [0] and [2])"),
        (
            {"guesser": "lowest", "choosers": ["uniform", {"spec": "uniform", "label": "u"}]},
            "choosers[1]: 'uniform' is listed twice",
        ),
        (
            {
                "rows": [
                    {"guesser": "lowest", "label": "x", "chooser": "uniform"},
                    {"guesser": "entropy", "label": "x", "chooser": "evil"},
                ]
            },
            "rows[1]: guessers 'lowest' (rows[0]) and 'entropy' have the same label 'x' on mastermind",
        ),
    ],
)
def test_two_entries_with_one_label_are_refused_naming_both(data, needle):
    with pytest.raises(ArenaError, match="labels must be unique|list each spec once") as e:
        parse_config({"game": "mastermind", **data})
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_the_same_guesser_in_two_rows_keeps_its_label():  # rows of one agent (other seeds) stay allowed
    rows = [{"guesser": "random", "label": "r"}, {"guesser": "random", "label": "r", "seed": 2}]
    assert len(parse_config({"game": "mastermind", "rows": rows}).cells) == 2


def test_a_config_with_several_mistakes_names_them_all_in_one_line(tmp_path, capsys):
    from cli_run import one_line, run

    path = tmp_path / "two.toml"
    path.write_text(
        'games = ["mastermind:pegs=2,colors=3"]\nchoosers = ["uniform", "evill"]\nguessers = ["knuth", "entrophy"]\n'
    )
    rc, _, err = run(capsys, "run", str(path))
    one_line(
        rc,
        err,
        "2 mistakes: (1) cell 2 (entrophy): unknown guesser 'entrophy'",
        "(2) cell 3 (knuth) (and 1 other cell): unknown chooser 'evill'",
    )
    path.write_text('gams = ["x"]\nchosers = ["y"]\n')
    rc, _, err = run(capsys, "run", str(path))
    one_line(rc, err, "unknown key 'chosers'; did you mean 'choosers'?; unknown key 'gams'; did you mean 'games'?")
