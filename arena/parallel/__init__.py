"""Work on many processes: forked workers that end with their parent, a Dask cluster, their
watchdogs and progress. Modules, one idea each:

    pool      worker processes a task cannot take down: time limits, deaths, orphans
    orphans   worker processes that end with their parent, whatever signal ends it
    futures   waiting on workers' futures (a Dask cluster left with no worker is an error)
    progress  what a long run says while it runs: one status line on stderr, or a log
"""
