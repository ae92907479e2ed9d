"""Strategy trees: a deterministic guesser against every secret at once.
Modules, one idea each:

    tree     Node and Tree: strategy trees as data, printed and saved
    grow     the one tree grower: a choose at each node, the game's partition, hooks; and
             grow_tree, a guesser's tree by any route
    levels   growing a scoring guesser's tree a whole level at a time (compiled)
    saved    saved trees read and replayed (SavedTree, load_tree)
    replay   a tree written as its guesses in pre-order replayed to each secret's guesses
             (compiled): what a journal's reader checks subtrees with
    greedy   the greedy (scoring) guesser, and its trees the solvers start from
    metrics  the partition metrics a scoring guesser rates guesses by
    plot     strategy trees drawn with Graphviz (`arena tree --plot`)
"""
