"""Strategy trees drawn (arena/trees/plot.py): what the boxes and edges say, folding, the files
written, and the one-line errors."""

import re
import shutil

import pytest
from cli_run import one_line, run

from agents import make_guesser
from arena import ArenaError, make_game
from arena.trees.grow import grow_tree
from arena.trees.plot import count_boxes, draw_tree, edge_label, tree_graph

SMALL = "mastermind:pegs=3,colors=4"


@pytest.fixture(scope="module")
def tree():
    return grow_tree(make_game(SMALL), make_guesser("knuth"))


def test_the_graph_names_guesses_replies_sizes_and_costs(tree):
    source = tree_graph(tree, depth=1).source
    root = tree.root
    assert f'"{tree.game.guesses[root.guess]}\n64 secrets\n216 guesses (3.38, worst 4)"' in source
    for reply in root.children:  # every reply on an edge from the root
        assert f"label={edge_label(tree, reply)}" in source.replace('"', "")
    assert source.count(" -> ") == len(root.children)
    assert source.count("dashed") == sum(1 for c in root.children.values() if c.children)  # folded below depth 1


def test_deeper_drawings_have_more_boxes_until_the_whole_tree(tree):
    every = sum(1 for _ in tree.nodes())
    sizes = [count_boxes(tree, depth, 1) for depth in (1, 2, 3, None)]
    assert sizes == sorted(sizes) and sizes[-1] == every and sizes[0] == 1 + len(tree.root.children)
    assert "dashed" not in tree_graph(tree, depth=None).source


def test_small_classes_fold_into_one_box(tree):
    assert count_boxes(tree, None, min_count=10) < count_boxes(tree, None, min_count=1)


def test_a_dot_file_needs_no_graphviz_program(tree, tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    path = draw_tree(tree, tmp_path / "tree.dot", depth=2)
    assert path.read_text().startswith("digraph tree {")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)")
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_graphviz_draws_svg_png_and_pdf(tree, tmp_path, suffix, magic):
    path = draw_tree(tree, tmp_path / f"tree{suffix}")
    assert path.read_bytes().startswith(magic)
    if suffix == ".svg":
        assert "216 guesses" in path.read_text()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)")
def test_arena_tree_plot_draws_the_tree(tree, tmp_path, capsys):
    rc, out, err = run(capsys, "tree", SMALL, "knuth", "--plot", tmp_path / "t.svg", "--depth", "1")
    assert rc == 0, err
    assert "tree drawn to" in out
    assert (tmp_path / "t.svg").read_text().count('<g id="node') == 1 + len(tree.root.children)


def test_a_missing_dot_program_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    rc, _, err = run(capsys, "tree", SMALL, "knuth", "--plot", tmp_path / "t.svg")
    one_line(rc, err, "Graphviz", "dot", "t.dot")
    assert not (tmp_path / "t.svg").exists()


def test_bad_plot_files_and_huge_drawings_are_one_line(tmp_path, capsys):
    rc, _, err = run(capsys, "tree", SMALL, "knuth", "--plot", tmp_path / "t.txt")
    one_line(rc, err, ".svg", ".dot")
    rc, _, err = run(capsys, "tree", SMALL, "knuth", "--plot", tmp_path / "nowhere" / "t.svg")
    one_line(rc, err, "does not exist")
    rc, _, err = run(
        capsys, "tree", "jotto:first=600", "entropy", "--plot", tmp_path / "t.dot", "--depth", "9", "--min-count", "1"
    )
    one_line(rc, err, "too many to read", "--depth")


def test_a_depth_of_zero_is_refused(tree):
    with pytest.raises(ArenaError, match="depth 1 or more"):
        tree_graph(tree, depth=0)


def shown(quoted: str) -> str:
    """What Graphviz shows for a quoted DOT label: its escString read as `dot` reads it, with
    `\\N`, `\\G`, `\\E`, `\\T`, `\\H` and `\\L` (names substituted by Graphviz) marked."""
    out, chars = [], iter(quoted)
    for c in chars:
        if c != "\\":
            out.append(c)
            continue
        c = next(chars, "")
        out.append({"n": "\n", "l": "\n", "r": "\n"}.get(c, f"<{c}>" if c in "NGETHL" else c))
    return "".join(out)


def labels(source: str) -> list[str]:
    """Every label of a DOT source, in order; each a quoted string or a plain ID, never `<...>` HTML."""
    found = []
    for piece in source.split("label=")[1:]:
        assert not piece.startswith("<"), piece[:40]
        if not piece.startswith('"'):
            found.append(re.match(r"[A-Za-z0-9_.]+", piece)[0])
            continue
        end = 1
        while piece[end] != '"':
            end += 2 if piece[end] == "\\" else 1
        found.append(shown(piece[1:end]))
    return found


@pytest.mark.parametrize("alphabet", ['"\\<', "\\N>", "<b>", "{|}"])
def test_labels_show_the_games_symbols_as_written(alphabet):
    game = make_game(f"mastermind:pegs=2,colors=3,alphabet={alphabet}")
    tree = grow_tree(game, make_guesser("knuth"))
    drawn = labels(tree_graph(tree, depth=1).source)
    root = tree.root
    assert drawn[0].startswith(f"minimax on {game.spec}: 9 secrets")  # the title
    assert drawn[1] == f"{game.guesses[root.guess]}\n9 secrets\n24 guesses (2.67, worst 4)"
    assert {label.split(" ...")[0] for label in drawn[2:] if " ..." in label} == {
        game.guesses[child.guess] for child in root.children.values() if child.children
    }
    assert all("<N>" not in label for label in drawn)


def test_edges_say_what_the_strategy_table_says_and_the_title_names_the_guesser_asked(tree):
    mm = grow_tree(make_game("mastermind"), make_guesser("knuth"))
    drawn = labels(tree_graph(mm, depth=1, guesser="knuth").source)
    assert drawn[0].startswith("knuth on mastermind: 1,296 secrets, total 5,801")
    table = mm.table(depth=2)
    edges = [label for label in drawn[1:] if "secret" not in label]
    assert sorted(edges) == sorted(edge_label(mm, r) for r in mm.root.children) and "RW" in edges and "none" in edges
    histories = {line.split()[0] for line in table.splitlines()[2:] if line.startswith("|") and line.count("|") == 1}
    assert len(histories) >= 10 and histories <= {f"|{e}" if e != "none" else "|" for e in edges}


def test_a_wide_tree_is_spread_over_columns_not_drawn_as_a_strip(tree, tmp_path):
    from arena.trees.plot import columns_for

    mm = grow_tree(make_game("mastermind"), make_guesser("knuth"))
    columns = columns_for(mm, 2, 1)  # about sqrt(boxes in the last column / 3)
    assert 4 <= columns <= 8 and columns_for(mm, 1, 1) < columns and columns_for(tree, None, 1) >= 1
    source = tree_graph(mm, depth=2).source
    assert set(re.findall(r"minlen=(\d+)", source)) == {str(k) for k in range(1, columns + 1)}
    if shutil.which("dot") is not None:  # Knuth's tree to depth 2 was 817 x 8,129 pixels
        import struct

        head = draw_tree(mm, tmp_path / "k.png", depth=2).read_bytes()[16:24]
        width, height = struct.unpack(">II", head)
        assert height < 3 * width, (width, height)
