"""Work on many processes: forked workers that end with their parent, or a Dask cluster's, one
watchdog, one thread each, progress. Modules, one idea each:

    outcome   what a task returns: TaskResult, its Status (ok, failed, not run)
    pool      forked worker processes a task cannot take down: time limits, deaths, orphans
    cluster   a Dask cluster's workers: connecting, sending tasks, the no-worker watchdog,
              numbers the parent shares with them (ClusterNumbers, as pool's shared memory)
    orphans   worker processes that end with their parent, whatever signal ends it
    threads   one thread per worker: the numeric libraries' thread pools held to one
    progress  what a long run says while it runs: one status line on stderr, or a log; a bar

Only this package starts processes or talks to Dask (tests/test_architecture.py checks it): the
tournament (arena.study.tournament.play) and the split (arena.optimal.split) both send their
tasks to a `Pool` or to `Cluster.workers`, which take the same calls (`submit`, `done`, `run`)
and return the same `TaskResult`s.
"""
