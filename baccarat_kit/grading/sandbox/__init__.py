"""Where learner code runs: the only part of the kit that knows namespaces, limits and Landlock.

* :mod:`.bwrap`: each submission in its own bubblewrap namespaces (the whole command as data);
* :mod:`.landlock`: Linux Landlock on top, where the kernel has it;
* :mod:`.reaper`: ends what a learner's process leaves behind (``--no-sandbox``);
* :mod:`.reader`: parses a submission once in a memory-limited process;
* :mod:`.runner`: runs the code cells inside the sandbox; :mod:`._extract`: prints the answers;
* :mod:`.session`: the grader's side of all of these.
"""
