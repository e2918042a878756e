"""A term's steps around grading, each touching the learners' folders or the gradebook.

* :mod:`.release`: the learners' copies of the exercises from the instructor's sources;
* :mod:`.collect`: the class's hand-ins into a dated folder, with a manifest of who handed in what;
* :mod:`.hand_back`: ``baccarat-kit return``, each learner's feedback pages into her folder;
* :mod:`.gradebook` and :mod:`.export`: ``results.json``, ``grades.csv`` and the LMS files.
"""
