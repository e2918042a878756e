# baccarat-kit: two commands on a fresh machine.
#   make lab   -> creates .venv, installs the kit, copies the course into workspace/ (yours,
#                 git-ignored) and opens JupyterLab on it
#   make test  -> same environment, then ruff and every test (library, doctests, notebooks)
#   make test-fast -> the inner loop: ruff, library, grading (no browser), nbval
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTEST_TMP ?= $(CURDIR)/.pytest-tmp

.PHONY: venv lab test test-fast lint typecheck clean

# Python's own bytecode caches (__pycache__/, git-ignored) are kept, even where the shell says
# PYTHONDONTWRITEBYTECODE=1 (as some containers and CI images do). Without them every process
# compiles the kit again (0.4 CPU-s for each sandbox, CLI run and kernel) and every pytest worker
# rewrites every test module's asserts: a fifth of the CPU time of `make test-fast`. The tests
# compile the kit first (the sandboxes, which write nothing, then read the caches).
unexport PYTHONDONTWRITEBYTECODE

venv: $(VENV)/.installed

# uv (from PyPI) makes the environment in seconds; where no uv is on PATH it is installed into
# the new venv with pip, and where even that fails pip installs everything (slower, same
# result). uv first tries its cache alone (--offline, a few seconds faster), then the index.
# NO_UV=1 forces plain pip (to compare). `make lab` installs the [lab] extra only (the
# learner's first start); `make test` adds the test tools to the same .venv.
# Every version comes from the lock file requirements/test.lock (a constraint: [lab] takes the
# same versions as [test]), so a developer, CI and the packaging tests run what was tested;
# `make lock` writes it again after a change to pyproject.toml's dependencies (keeping every
# version it can), `make lock UPGRADE=1` moves every package to its newest version.
# Bytecode is compiled at install (uv's --compile-bytecode, pip by default), then compileall
# goes over the kit (installed editable) and site-packages (uv compiles only what it installs
# now, not a venv made before; a second pass only checks, about 2 s): the grader's sandboxes
# read the venv read-only and write no caches, so without them every submission compiles
# IPython again (benchmarks/bench_grade.py measures both).
UV ?= $(shell command -v uv 2>/dev/null)
LOCK := requirements/test.lock
# uv leaves out what baccarat_kit/data/uv-overrides.txt says (and why).
UV_OVERRIDES := --override baccarat_kit/data/uv-overrides.txt
UV_INSTALL := pip install --quiet --compile-bytecode $(UV_OVERRIDES) -c $(LOCK)
# pip has no overrides: it installs rfc3987-syntax, then this takes it out again.
PIP_LEAVE_OUT := $(PY) -m pip uninstall --quiet --yes rfc3987-syntax
define install_kit
	@set -e; \
	if [ -n "$(NO_UV)" ]; then \
		[ -x $(PY) ] || $(PYTHON) -m venv $(VENV); \
		$(PY) -m pip install --quiet --upgrade pip; \
		$(PY) -m pip install --quiet -c $(LOCK) -e '.[$(1)]'; \
		$(PIP_LEAVE_OUT); \
	elif [ -n "$(UV)" ]; then \
		"$(UV)" venv --quiet --allow-existing --python $(PYTHON) $(VENV); \
		"$(UV)" $(UV_INSTALL) --offline --python $(PY) -e '.[$(1)]' 2>/dev/null || \
		"$(UV)" $(UV_INSTALL) --python $(PY) -e '.[$(1)]'; \
	else \
		[ -x $(PY) ] || $(PYTHON) -m venv $(VENV); \
		if $(PY) -m pip install --quiet -c $(LOCK) uv; then \
			$(BIN)/uv $(UV_INSTALL) --python $(PY) -e '.[$(1)]'; \
		else \
			echo "uv not available: installing with pip (slower)"; \
			$(PY) -m pip install --quiet --upgrade pip; \
			$(PY) -m pip install --quiet -c $(LOCK) -e '.[$(1)]'; \
			$(PIP_LEAVE_OUT); \
		fi; \
	fi; \
	$(PY) -m compileall -q -j 0 baccarat_kit "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
endef

# baccarat_kit/__init__.py holds the version: the installed metadata follows a bump.
$(VENV)/.installed: pyproject.toml baccarat_kit/data/uv-overrides.txt $(LOCK) baccarat_kit/__init__.py
	$(call install_kit,test)
	touch $@ $(VENV)/.installed-lab

$(VENV)/.installed-lab: pyproject.toml baccarat_kit/data/uv-overrides.txt $(LOCK) baccarat_kit/__init__.py
	$(call install_kit,lab)
	touch $@

# The lock file of the test environment (see above). Needs uv (make venv installs it).
.PHONY: lock
lock:
	"$(or $(UV),$(BIN)/uv)" pip compile pyproject.toml --extra test $(UV_OVERRIDES) --python $(PY) \
		-o $(LOCK) --quiet --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade,)

# JupyterLab refuses to run as root unless told; containers and these machines run as root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Your own copy of the course: workspace/ (git-ignored; make test and CI never read it).
# The first `make lab` copies the lessons, the exercises (learner copies, never
# exercises/source/) and the trainer; later runs keep your work and only add what is missing.
# `make update-workspace` brings the files you have not changed up to the current course and
# lists the ones it kept. JupyterLab shows only workspace/ and opens the first lesson.
WORKSPACE ?= workspace
LAB_ARGS ?=
lab: $(VENV)/.installed-lab
	$(BIN)/baccarat-kit lab $(WORKSPACE) $(LAB_ARGS)

.PHONY: workspace update-workspace
workspace: $(VENV)/.installed-lab
	$(BIN)/baccarat-kit course $(WORKSPACE)

update-workspace: $(VENV)/.installed-lab
	$(BIN)/baccarat-kit course $(WORKSPACE) --update

# The trainer: hand builder, rule checker and a quiz as a web app without code (Voilà).
.PHONY: trainer screenshots
TRAINER_PORT ?= 8866
# The trainer of the workspace's course copy: its progress is the lessons' (workspace/).
trainer: $(VENV)/.installed-lab
	$(BIN)/baccarat-kit trainer $(WORKSPACE) --no-browser --port=$(TRAINER_PORT)

# Retake the README's screenshots (docs/screenshots/*.png) with the browser tests.
screenshots: venv
	$(PY) tests/browser/take_screenshots.py

lint: venv
	$(BIN)/ruff check baccarat_kit tests

NOTEBOOKS := $(wildcard notebooks/*.ipynb notebooks/en/*.ipynb)
# Both editions (zh, en), one notebook after another. Not with pytest-xdist: two workers start
# kernels at the same moment, and on a loaded machine one kernel can lose its TCP ports to the
# other's between jupyter_client choosing them and the kernel binding them ("Kernel died before
# replying to kernel_info", seen in a CI run under stress-ng). A kernel may take up to 10 minutes
# to start (nbval's 60 s is short for a loaded laptop; the wait ends when the kernel is up).
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg --nbval-kernel-startup-timeout 600

# The whole package, typed strictly (every module, the grader's sandbox side too; pyproject.toml's
# [tool.mypy] says which third-party packages have no types or unannotated functions). The
# tests are not type-checked.
typecheck: venv
	$(BIN)/mypy --strict baccarat_kit

# The Lite site and the hub's proxy are built/installed first (cached: fast the second time).
# pytest runs on JOBS pytest-xdist workers (every test still runs): each test file goes whole to
# one worker (its module fixtures, a graded batch or a built wheel, are made once), all browser
# tests to one worker (one JupyterLab, one Chromium); see tests/conftest.py. JOBS=0 runs them in
# one process. nbval stays serial (above).
JOBS ?= 2
XDIST = $(if $(filter 0,$(JOBS)),-p no:xdist,-n $(JOBS) --dist loadfile)
PYTEST_ARGS ?=
# nbval (serial, see NBVAL) runs beside the library tests, not after them: much of their time is
# spent waiting for sandboxes, servers and kernels, which the notebooks fill; its output follows
# theirs, and stopping make (Ctrl-C) stops it too. One BLAS thread per process: the 2 cores
# already carry 3 pytest processes, and OpenBLAS's spinning threads cost lesson 08's counting
# analysis half again its CPU time. The library tests' output is kept in PYTEST_TMP/$(1).log and,
# if they failed, their failures are named again last, after nbval's output (a CI log that
# shows only its tail still names the failures). $(1): pytest's folder under PYTEST_TMP;
# $(2): environment; $(3): more pytest arguments.
TEST_ENV := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
define run_tests
	@mkdir -p "$(PYTEST_TMP)"
	@$(PY) -m compileall -q baccarat_kit
	@set +e; nb=; trap '[ -n "$$nb" ] && kill $$nb 2>/dev/null' EXIT INT TERM; \
	if [ -n "$(NOTEBOOKS)" ]; then \
		echo "nbval of $(words $(NOTEBOOKS)) notebooks beside the library tests (its output follows theirs)"; \
		$(2) $(PY) -m pytest --basetemp="$(PYTEST_TMP)/nb" $(NBVAL) $(NOTEBOOKS) > "$(PYTEST_TMP)/nbval.log" 2>&1 & nb=$$!; \
	fi; \
	echo "$(PY) -m pytest $(XDIST) --basetemp='$(PYTEST_TMP)/$(1)' $(3) $(PYTEST_ARGS) tests baccarat_kit --doctest-modules"; \
	rm -f "$(PYTEST_TMP)/$(1).rc"; color=; [ -t 1 ] && color=--color=yes; \
	{ $(2) $(PY) -m pytest $(XDIST) --basetemp="$(PYTEST_TMP)/$(1)" $$color $(3) $(PYTEST_ARGS) tests baccarat_kit \
		--doctest-modules; echo $$? > "$(PYTEST_TMP)/$(1).rc"; } 2>&1 | tee "$(PYTEST_TMP)/$(1).log"; \
	lib=$$(cat "$(PYTEST_TMP)/$(1).rc"); \
	nbrc=0; if [ -n "$$nb" ]; then wait $$nb; nbrc=$$?; nb=; echo "--- nbval ($(words $(NOTEBOOKS)) notebooks):"; \
		cat "$(PYTEST_TMP)/nbval.log"; fi; \
	if [ "$$lib" != 0 ]; then echo "--- the library tests failed (exit $$lib):"; \
		sed -e 's/\x1b\[[0-9;]*m//g' -n -e '/short test summary info/,$$p' "$(PYTEST_TMP)/$(1).log" \
			| grep -E '^(FAILED|ERROR) |^=+ .* in [0-9.]+s'; fi; \
	[ "$$lib" = 0 ] && [ $$nbrc -eq 0 ]
endef

test: venv lint typecheck lite hub-deps axe-deps
	$(call run_tests,lib,$(TEST_ENV),)

# The inner loop (3 min 8 s on an idle 2-core machine, warm venv; measured): ruff, the library with its doctests, the
# grader in its sandbox (browser left out) and nbval of both editions. Not here, but in make
# test: the browser tests (JupyterLab, Voila, the Lite site, the hub), the packaging tests (fresh
# venvs from the built wheel), the tests marked `slow` (the Dask cluster of processes and its
# three class-sized batches, a copy of the whole repository), mypy and the Lite build; and the long samplings run smaller
# (BACCARAT_KIT_TEST_FAST=1: tests/conftest.py's fast_loop(); 400 ids instead of 2,000).
FAST_IGNORE := --ignore=tests/browser --ignore=tests/test_packaging.py --ignore=tests/test_packaging_delivery.py -m "not slow"
.PHONY: test-fast
test-fast: venv lint
	$(call run_tests,fast,BACCARAT_KIT_TEST_FAST=1 $(TEST_ENV),$(FAST_IGNORE))

clean:
	rm -rf $(VENV) "$(PYTEST_TMP)" build *.egg-info

# Rebuild and execute the lesson notebooks from notebooks/src/*.py (outputs stored for nbval).
.PHONY: notebooks
notebooks: venv
	$(PY) notebooks/build.py

# ---------------------------------------------------------------------------- delivery
# The zero-install edition: a JupyterLite site in lite/_output (Pyodide from npm and every wheel
# served by the site itself; downloads cached in .cache/). Serve it: make lite-serve.
LITE_OUT := lite/_output
LITE_DEPS := lite/build.py lite/jupyter-lite.json lite/jupyter_lite_config.json pyproject.toml \
	baccarat_kit/data/course.toml $(wildcard notebooks/*.ipynb exercises/*.ipynb trainer/*.ipynb \
	baccarat_kit/*.py baccarat_kit/*/*.py baccarat_kit/*/*.toml)
LITE_PORT ?= 8870
.PHONY: lite lite-serve hub-deps hub
lite: $(LITE_OUT)/baccarat-kit-lite.json
$(LITE_OUT)/baccarat-kit-lite.json: $(VENV)/.installed $(LITE_DEPS)
	$(PY) lite/build.py --output $(LITE_OUT)

lite-serve: lite
	@echo "JupyterLite: open http://127.0.0.1:$(LITE_PORT)/lab/index.html (Ctrl-C stops it)"
	$(PY) lite/serve.py $(LITE_OUT) --port $(LITE_PORT)

# JupyterHub's proxy (configurable-http-proxy, npm), cached in .cache/npm/chp.
CHP := .cache/npm/chp/node_modules/.bin/configurable-http-proxy
hub-deps: $(CHP)
$(CHP):
	mkdir -p .cache/npm/chp
	npm install --silent --no-audit --no-fund --prefix .cache/npm/chp configurable-http-proxy@4
	test -x $@

# axe-core (npm), injected into the pages the accessibility browser tests check; cached.
AXE := .cache/npm/axe/node_modules/axe-core/axe.min.js
.PHONY: axe-deps
axe-deps: $(AXE)
$(AXE):
	mkdir -p .cache/npm/axe
	npm install --silent --no-audit --no-fund --prefix .cache/npm/axe axe-core@4
	test -f $@

# A class on this machine (as root), a Unix user per learner (deploy/jupyterhub/README.md).
# hub-setup builds, or after a `git pull` upgrades, the learners' environment in $(HUB_PREFIX)
# (readable by them, not writable) and closes this clone to them: a step of its own, run when you
# choose, never by `make hub`, so a pull never changes the kit under learners' running servers.
# `make hub` only starts the hub (the command the systemd unit runs: hub-unit installs it).
# Add learners with
#   .venv/bin/baccarat-kit hub passwd $(HUB_PREFIX)/state/classlist.csv alice bruno
HUB_PREFIX ?= /opt/baccarat-hub
HUB_CONFIG := deploy/jupyterhub/jupyterhub_config.py
HUB_UNIT := deploy/jupyterhub/baccarat-hub.service
UNIT_DIR ?= /etc/systemd/system
.PHONY: hub-setup hub-env hub-unit
hub-setup: venv hub-deps
	$(BIN)/baccarat-kit hub setup $(HUB_PREFIX)
hub-env: hub-setup

hub:
	@test -x $(BIN)/jupyterhub -a -x $(CHP) -a -x $(HUB_PREFIX)/venv/bin/baccarat-kit || \
		{ echo "no hub set up here: run 'make hub-setup' first (HUB_PREFIX=$(HUB_PREFIX))" >&2; exit 2; }
	BACCARAT_HUB_PREFIX=$(HUB_PREFIX) $(BIN)/jupyterhub -f $(HUB_CONFIG)

# The systemd unit with this clone's path (the file says /srv/baccarat-kit) and HUB_PREFIX.
hub-unit:
	sed -e 's|/srv/baccarat-kit|$(CURDIR)|g' -e 's|/opt/baccarat-hub|$(HUB_PREFIX)|g' $(HUB_UNIT) \
		> $(UNIT_DIR)/baccarat-hub.service
	@echo "wrote $(UNIT_DIR)/baccarat-hub.service: systemctl daemon-reload && systemctl enable --now baccarat-hub"
