# baccarat-kit: two commands on a fresh machine.
#   make lab   -> creates .venv, installs the kit, opens JupyterLab on the course
#   make test  -> same environment, then ruff and every test (library, doctests, notebooks)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTEST_TMP ?= $(CURDIR)/.pytest-tmp

.PHONY: venv lab test lint typecheck clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# JupyterLab refuses to run as root unless told; containers and these machines run as root.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Opens the first lesson; the file browser shows the whole course (notebooks/, exercises/).
lab: venv
	$(BIN)/jupyter lab $(ALLOW_ROOT) --ServerApp.root_dir=$(CURDIR) \
		--LabApp.default_url=/lab/tree/notebooks/00-how-to-use.ipynb

# The trainer: hand builder, rule checker and a quiz as a web app without code (Voilà).
.PHONY: trainer screenshots
TRAINER_PORT ?= 8866
trainer: venv
	@echo "Trainer: open http://127.0.0.1:$(TRAINER_PORT)/ (Ctrl-C stops it)"
	$(BIN)/voila trainer/trainer.ipynb --no-browser --port=$(TRAINER_PORT) --Voila.ip=127.0.0.1

# Retake the README's screenshots (docs/screenshots/*.png) with the browser tests.
screenshots: venv
	$(PY) tests/browser/take_screenshots.py

lint: venv
	$(BIN)/ruff check baccarat_kit tests

NOTEBOOKS := $(wildcard notebooks/*.ipynb notebooks/en/*.ipynb)
# Both editions (zh, en); two workers, each notebook whole on one worker (pytest-xdist, loadfile).
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg -n 2 --dist loadfile

# The engine's public API is typed strictly (the optional parts are checked by their tests).
ENGINE := baccarat_kit/__init__.py baccarat_kit/cards.py baccarat_kit/rules.py baccarat_kit/coup.py \
	baccarat_kit/shoe.py baccarat_kit/settlement.py baccarat_kit/ledger.py baccarat_kit/i18n.py \
	baccarat_kit/errors.py baccarat_kit/cli.py baccarat_kit/misconceptions.py

typecheck: venv
	$(BIN)/mypy --strict --follow-imports=silent $(ENGINE)

test: venv lint typecheck
	$(PY) -m pytest --basetemp=$(PYTEST_TMP) tests baccarat_kit --doctest-modules
ifneq ($(NOTEBOOKS),)
	$(PY) -m pytest --basetemp=$(PYTEST_TMP)/nb $(NBVAL) $(NOTEBOOKS)
endif

clean:
	rm -rf $(VENV) $(PYTEST_TMP) build *.egg-info

# Rebuild and execute the lesson notebooks from notebooks/src/*.py (outputs stored for nbval).
.PHONY: notebooks
notebooks: venv
	$(PY) notebooks/build.py
