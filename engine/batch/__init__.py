"""The batch analyser: play many seeded games, keep their results, and describe them.

Modules, from the bottom up:

* :mod:`.seeds`: seed ranges (``A-B``), sets of seeds kept as runs, and chunking;
* :mod:`.stats`: the Wilson interval, histogram percentiles and the mergeable
  :class:`~.stats.Summary` (exact statistics in bounded memory);
* :mod:`.compare`: the two-proportion z test and Welch's t test;
* :mod:`.results`: result files (a header line, then one compact JSON record a game);
* :mod:`.paired`: McNemar's and the paired t test, for two result files of the same seeds;
* :mod:`.worker`: what one worker does with one chunk of seeds;
* :mod:`.executors`: serial, process-pool and Dask executors, all yielding chunks in seed order;
* :mod:`.runner`: a whole batch (resume, stream to the file, merge);
* :mod:`.report`: statistics as rows for tables, CSV and JSON; :mod:`.plot`: the ``--plot`` figure;
  :mod:`.progress`: the progress bar.

Nothing here imports dask, matplotlib or numpy at import time.
"""
