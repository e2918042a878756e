"""JupyterHub for a baccarat-kit class on one machine, as The Littlest JupyterHub does it.

Every learner is a Unix user of their own (``jupyter-NAME``), made at their first sign-in, with
a home only they can open (0700) holding their own copy of the course (written as them). Their
server runs as that user, never as root, inside a cgroup with a memory limit. They sign in with
their own password from the instructor's class list (scrypt hashes, root-only file). The
classes are in ``baccarat_kit/hub/``; what a learner can and cannot reach is measured by
``tests/browser/test_hub.py`` and written down in ``deploy/jupyterhub/README.md``.

Run as root, from the repository (``make hub-setup`` is the first, ``make hub`` the last; the
systemd unit ``baccarat-hub.service`` runs the last one too, and restarts it)::

    .venv/bin/baccarat-kit hub setup /opt/baccarat-hub      # learners' env; closes this clone
    .venv/bin/baccarat-kit hub passwd /opt/baccarat-hub/state/classlist.csv alice bruno
    .venv/bin/jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

Settings from the environment (defaults in brackets):

- ``BACCARAT_HUB_PREFIX``  the learners' environment and the hub's state [/opt/baccarat-hub]:
  ``venv/`` (from ``hub setup``), ``state/`` (0700: database, cookie secret, class list)
- ``BACCARAT_HUB_DIR``     the hub's state folder [PREFIX/state]
- ``BACCARAT_HUB_CLASS_LIST``  [STATE/classlist.csv]
- ``BACCARAT_HUB_HOMES``   where learners' homes are made [/home]
- ``BACCARAT_HUB_USER_PREFIX``  Unix name prefix [jupyter-]
- ``BACCARAT_HUB_MEM_LIMIT`` / ``BACCARAT_HUB_PIDS_LIMIT``  per learner [1G / 512]
- ``BACCARAT_HUB_CPU_LIMIT``  cores per learner, all her processes together [0.5]
- ``BACCARAT_HUB_ADMINS``   hub names (on the class list) with the admin page /hub/admin [none]
- ``BACCARAT_HUB_IDLE_TIMEOUT``  seconds before an idle server is stopped [3600]
- ``BACCARAT_HUB_KERNEL_IDLE_TIMEOUT``  seconds before an idle kernel is shut down [900]
- ``BACCARAT_HUB_IP`` / ``BACCARAT_HUB_PORT``  where learners connect [127.0.0.1 / 8000]
- ``BACCARAT_HUB_SSL_CERT`` / ``BACCARAT_HUB_SSL_KEY``  serve HTTPS (PEM files, root-only key)
- ``BACCARAT_HUB_PROXY``   the configurable-http-proxy command [.cache/npm/chp from make hub-deps]
"""

import os
import shutil
import sys
from pathlib import Path

from baccarat_kit.course import repository_root
from baccarat_kit.hub import PREFIX, env

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - provided by JupyterHub

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOP = Path(os.environ.get("BACCARAT_HUB_PREFIX", "/opt/baccarat-hub"))
STATE = Path(os.environ.get("BACCARAT_HUB_DIR") or TOP / "state").resolve()
LEARNER_ENV = TOP / "venv"
HOMES = os.environ.get("BACCARAT_HUB_HOMES", "/home")
USER_PREFIX = os.environ.get("BACCARAT_HUB_USER_PREFIX", PREFIX)

if os.geteuid() != 0:
    sys.exit("jupyterhub_config.py: a hub with a Unix user per learner runs as root")
if not (LEARNER_ENV / "bin" / "baccarat-kit").exists():
    sys.exit(f"jupyterhub_config.py: no learners' environment in {LEARNER_ENV}: "
             f"run `baccarat-kit hub setup {TOP}` (or `make hub`) first")

# ---- the hub's own files: root's only (database, cookie secret, class list, proxy pid)
STATE.mkdir(parents=True, exist_ok=True)
os.chmod(STATE, 0o700)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
# The instructor's clone (exercises/source, the model solutions in .git): closed to learners.
for clone in {REPO, repository_root()} - {None}:
    if (clone / "exercises" / "source").is_dir() and env.close_clone(clone):
        print(f"jupyterhub_config.py: closed {clone} to other users (chmod o-rwx)")

# ---- where the hub listens (loopback unless told otherwise); HTTPS when given a certificate
ip = os.environ.get("BACCARAT_HUB_IP", "127.0.0.1")
cert, key = os.environ.get("BACCARAT_HUB_SSL_CERT"), os.environ.get("BACCARAT_HUB_SSL_KEY")
scheme = "https" if cert and key else "http"
c.JupyterHub.bind_url = f"{scheme}://{ip}:{os.environ.get('BACCARAT_HUB_PORT', '8000')}"
if cert and key:
    c.JupyterHub.ssl_cert = cert
    c.JupyterHub.ssl_key = key
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("BACCARAT_HUB_API_PORT", "0") or 0) or 8081
c.ConfigurableHTTPProxy.api_url = (
    f"http://127.0.0.1:{os.environ.get('BACCARAT_HUB_PROXY_API_PORT', '8001')}")

# ---- the proxy: configurable-http-proxy from npm (make hub-deps installs it under .cache/)
proxy = os.environ.get("BACCARAT_HUB_PROXY") or shutil.which("configurable-http-proxy") or str(
    REPO / ".cache" / "npm" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy")
c.ConfigurableHTTPProxy.command = [proxy]

# ---- who may sign in: the learners of the class list, each with their own password
c.JupyterHub.authenticator_class = "baccarat_kit.hub.jupyter.ClassListAuthenticator"
c.ClassListAuthenticator.class_list = os.environ.get(
    "BACCARAT_HUB_CLASS_LIST", str(STATE / "classlist.csv"))

# ---- the instructor: hub names with the admin page (/hub/admin: servers, users), e.g. "teacher"
# (on the class list like a learner: she signs in with her own password)
c.Authenticator.admin_users = {n.strip().lower() for n in os.environ.get("BACCARAT_HUB_ADMINS", "").split(",")
                               if n.strip()}

# ---- each learner's server: their Unix user, their home, their course copy, their cgroup
c.JupyterHub.spawner_class = "baccarat_kit.hub.jupyter.LearnerSpawner"
c.LearnerSpawner.homes = HOMES
c.LearnerSpawner.unix_prefix = USER_PREFIX
c.Spawner.mem_limit = os.environ.get("BACCARAT_HUB_MEM_LIMIT", "1G")
c.Spawner.cpu_limit = float(os.environ.get("BACCARAT_HUB_CPU_LIMIT", "0.5"))
c.LearnerSpawner.pids_limit = int(os.environ.get("BACCARAT_HUB_PIDS_LIMIT", "512"))
# As the learner: her course copy in ~/course, then JupyterLab on her home (course/, the class
# copies in exercises/, her feedback/), opened as `baccarat-kit lab` opens it (the course's
# first layout, no news pop-up) on the first lesson.
c.Spawner.cmd = [str(LEARNER_ENV / "bin" / "baccarat-kit"), "hub", "singleuser"]
c.Spawner.args = [
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    "--FileContentsManager.delete_to_trash=False",
    # The hub waits on the port it chose: never let the server drift to another one.
    "--ServerApp.port_retries=0",
    # Idle kernels shut down, open notebooks' included: each lesson opened leaves a kernel (about
    # 45 MB, lesson 08's 200 MB), and the whole course in one sitting filled her memory limit.
    f"--MappingKernelManager.cull_idle_timeout={int(os.environ.get('BACCARAT_HUB_KERNEL_IDLE_TIMEOUT', '900'))}",
    "--MappingKernelManager.cull_interval=60",
    "--MappingKernelManager.cull_connected=True",
]
# Nothing of the hub's environment leaks in: the learners' own PATH, language only.
c.Spawner.env_keep = ["LANG", "LC_ALL", "BACCARAT_KIT_LANG"]
c.Spawner.environment = {"PATH": f"{LEARNER_ENV}/bin:/usr/local/bin:/usr/bin:/bin"}
c.Spawner.start_timeout = 300  # a class signing in at once on a busy machine: 70 s seen here
c.Spawner.http_timeout = 120

# ---- idle servers stopped after an hour (jupyterhub-idle-culler, a hub service)
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={int(os.environ.get('BACCARAT_HUB_IDLE_TIMEOUT', '3600'))}"],
}]
