"""What decides a grade, in the grader's own process: questions and checks, keys, own work.

* :mod:`.checks`: the question schema, the checks and the comparison;
* :mod:`.keys`: every expected answer, computed by the engine on demand;
* :mod:`.pasted`: a pasted copy of the kit's source, flagged for the instructor (never a score).
"""
