"""``baccarat-kit grade-manual GRADED``: written answers scored by hand, on top of the pipeline.

* :mod:`.cli`: the command (a page, or a CSV round-trip);
* :mod:`.page`: the scoring page on 127.0.0.1;
* :mod:`.publish`: the scores merged into the gradebook's files and its feedback pages rendered again.

The marks themselves (``manual.json``, the merge into the rows, the CSV) are the gradebook's:
:mod:`..term.manual`.
"""
