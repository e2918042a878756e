"""A class on one machine, as The Littlest JupyterHub does it: a Unix user per learner.

The pieces, each a small module, walked in the order a class meets them:

* :mod:`.env` — ``baccarat-kit hub setup PREFIX``: the learners' Python environment (an
  interpreter, the kit and JupyterLab) built where every learner can read it and none can write
  it, and the instructor's clone closed to them (its ``exercises/source`` holds the model
  solutions, its ``.git`` their history).
* :mod:`.classlist` — the class list: one scrypt-hashed password per learner, in a file only
  root reads (``baccarat-kit hub passwd`` adds a learner or resets a password).
* :mod:`.accounts` — the learner's Unix user ``jupyter-NAME`` made at first login (a home of
  their own, mode 0700), and removed with ``baccarat-kit hub remove-term`` at the end.
* :mod:`.limits` — memory, process and CPU limits per learner: a cgroup each (v1 or v2).
* :mod:`.jupyter` — the two JupyterHub classes ``deploy/jupyterhub/jupyterhub_config.py``
  uses: :class:`~.jupyter.ClassListAuthenticator` (with jupyterhub-nativeauthenticator: she keeps
  and changes her own password) and :class:`~.jupyter.LearnerSpawner` (which runs ``hub
  singleuser`` as her: her course copy, then JupyterLab as ``baccarat-kit lab`` opens it).
* :mod:`.notice` — in her kernels: a kernel killed for memory is explained once, in the next one.

Only :mod:`.jupyter` imports JupyterHub (the ``[hub]`` extra); the rest is the standard library
and the kit.
"""

PREFIX = "jupyter-"
"""The Unix name of learner ``alice`` is ``jupyter-alice`` (as TLJH names them), so a learner
name never collides with a system user."""

MARKER = "baccarat-kit learner"
"""The comment (GECOS) field of every account this kit makes: ``remove-term`` removes no other."""
