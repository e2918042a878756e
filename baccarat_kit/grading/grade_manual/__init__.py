"""``baccarat-kit grade-manual GRADED`` (written answers scored by hand), on top of the pipeline:
:mod:`.cli`, its page (:mod:`.page`) and the scores published into the gradebook (:mod:`.publish`)."""
