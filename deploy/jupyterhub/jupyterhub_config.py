"""JupyterHub for a baccarat-kit class on one machine (and for the local browser test).

Each learner signs in and gets their own copy of the course at first login, made by the same
code as ``baccarat-kit course DIR`` (lessons, learner copies of the exercises, the trainer;
never the instructor sources). JupyterLab opens on that copy, lesson 00 first. Later logins
keep the learner's work (files they changed are never overwritten).

Run (from the repository, after ``make hub-deps``)::

    .venv/bin/jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

Settings from the environment (defaults in brackets):

- ``BACCARAT_HUB_DIR``   state (database, cookie secret) and learners' homes [./hub-data]
- ``BACCARAT_HUB_IP`` / ``BACCARAT_HUB_PORT``   where learners connect [127.0.0.1 / 8000]
- ``BACCARAT_HUB_PASSWORD``   one shared class password for the DummyAuthenticator [none:
  any password; fine on loopback, NOT on a network: use a real authenticator there]
- ``BACCARAT_HUB_PROXY``   the configurable-http-proxy command [.cache/npm/chp from make hub-deps]

This is the one-machine set-up: DummyAuthenticator and SimpleLocalProcessSpawner run every
learner's server as the same system user, each confined by JupyterLab to its own folder but
not by the operating system. For a real class, use a real authenticator and give learners
separate users or containers (deploy/jupyterhub/README.md: SystemdSpawner, or Kubernetes with
Zero to JupyterHub and values.yaml).
"""

import os
import shutil
import sys
from pathlib import Path

from baccarat_kit import course

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - provided by JupyterHub

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DATA = Path(os.environ.get("BACCARAT_HUB_DIR", "hub-data")).resolve()
HOMES = DATA / "homes"
COURSE_DIR = "course"  # inside each learner's home
HOMES.mkdir(parents=True, exist_ok=True)

# ---- where the hub listens (loopback unless told otherwise)
ip = os.environ.get("BACCARAT_HUB_IP", "127.0.0.1")
c.JupyterHub.bind_url = f"http://{ip}:{os.environ.get('BACCARAT_HUB_PORT', '8000')}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("BACCARAT_HUB_API_PORT", "0") or 0) or 8081
c.ConfigurableHTTPProxy.api_url = (
    f"http://127.0.0.1:{os.environ.get('BACCARAT_HUB_PROXY_API_PORT', '8001')}")
c.JupyterHub.db_url = f"sqlite:///{DATA / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(DATA / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(DATA / "jupyterhub-proxy.pid")

# ---- the proxy: configurable-http-proxy from npm (make hub-deps installs it under .cache/)
proxy = os.environ.get("BACCARAT_HUB_PROXY") or shutil.which("configurable-http-proxy") or str(
    REPO / ".cache" / "npm" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy")
c.ConfigurableHTTPProxy.command = [proxy]

# ---- who may sign in
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
if os.environ.get("BACCARAT_HUB_PASSWORD"):
    c.DummyAuthenticator.password = os.environ["BACCARAT_HUB_PASSWORD"]
if os.environ.get("BACCARAT_HUB_ADMINS"):
    c.Authenticator.admin_users = set(os.environ["BACCARAT_HUB_ADMINS"].split(","))

# ---- each learner's own server, home and course copy
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.notebook_dir = str(HOMES / "{username}" / COURSE_DIR)
c.Spawner.default_url = f"/lab/tree/{course.Spec.load().first}"
c.Spawner.args = [
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    "--FileContentsManager.delete_to_trash=False",
    # The hub waits on the port it chose: never let the server drift to another one.
    "--ServerApp.port_retries=0",
]
if os.geteuid() == 0:  # containers and these class machines run as root
    c.Spawner.args.append("--allow-root")
c.Spawner.env_keep = ["PATH", "LANG", "LC_ALL", "BACCARAT_KIT_LANG"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120


def give_course(spawner):  # JupyterHub calls it with the Spawner
    """At every start: the course into the learner's home, never over their changes."""
    home = HOMES / spawner.user.name
    report = course.install(home / COURSE_DIR)
    if report.written:
        spawner.log.info("%s: %d course files written", spawner.user.name, len(report.written))
    # Jupyter's own folders stay inside the learner's home.
    spawner.environment.update({
        "HOME": str(home),
        "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
        "JUPYTER_DATA_DIR": str(home / ".local/share/jupyter"),
        "JUPYTER_RUNTIME_DIR": str(home / ".local/share/jupyter/runtime"),
        "IPYTHONDIR": str(home / ".ipython"),
        "MPLCONFIGDIR": str(home / ".config/matplotlib"),
    })


c.Spawner.pre_spawn_hook = give_course
