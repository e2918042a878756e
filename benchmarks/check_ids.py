"""Every per-learner question works for every learner id (issue 20, attack 15).

Run by hand (slow: about 0.1 s of CPU per learner id for the model solutions):

    .venv/bin/python benchmarks/check_ids.py [--ids 100000] [--full-every 1] [--start 0]
        [--secret-file term.key | --term]

For learner ids ``s000000`` … it evaluates, for every exercise whose questions depend on the
learner (a per-learner key, or a shuffled choice), every such key with the grader's own code
(:func:`baccarat_kit.grading.judge.keys.expected`: it must not raise) and checks that each choice
question's option order is a permutation; for every ``--full-every``-th id it also runs the
exercise's model solution in-process and grades it with every check, hidden ones included
(:func:`baccarat_kit.grading.judge.selfcheck.disagreements`): it must earn full marks.

With ``--secret-file FILE`` (or ``--term``: a fresh random secret) the ids are a term's class:
every key is computed from the learner's term token (:mod:`baccarat_kit.grading.term.secret`)
and the model solution runs on her term copy's data, with her copy's option letters
(:func:`baccarat_kit.grading.term.release.prove_term`), as ``release --class-list`` proves it. Prints the
counts and the first failures; exit 1 if any. ``tests/test_grading_keys.py`` runs a sample of
this in ``make test``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]


def per_learner_sources() -> list[tuple[dict, object]]:
    from baccarat_kit.grading.judge.checks import Exercise

    out = []
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        nb = read_source(path)
        ex = Exercise.from_metadata(nb["metadata"]["baccarat_kit"], str(path))
        if any(q.needs_learner or (q.kind == "choice" and q.shuffle) for q in ex.questions):
            out.append((nb, ex))
    return out


def check_id(learner: str, sources: list, full: bool, secret: object = None) -> list[str]:
    from baccarat_kit.grading.judge import keys, selfcheck
    from baccarat_kit.grading.term import release

    problems = []
    for nb, ex in sources:
        key_id = secret.token(ex.id, learner) if secret is not None else learner  # type: ignore[attr-defined]
        for q in ex.questions:
            try:
                if q.needs_learner:
                    keys.expected(q.key, key_id)
                if q.kind == "choice" and sorted(q.option_order(key_id)) != sorted(q.options):
                    problems.append(f"{learner} {ex.id} {q.id}: option order is not a permutation")
            except Exception as err:
                problems.append(f"{learner} {ex.id} {q.id}: {type(err).__name__}: {err}")
        if full and secret is not None:
            try:
                release.prove_term(nb, ex.id, secret, learner)  # type: ignore[arg-type]
            except Exception as err:
                problems.append(f"{learner} {ex.id}: term copy: {type(err).__name__}: {err}")
        elif full:
            try:
                for qid, said in selfcheck.disagreements(nb, learner, ex.id, ex):
                    problems.append(f"{learner} {ex.id} {qid}: model solution {said['en']}")
            except Exception as err:
                problems.append(f"{learner} {ex.id}: model solution raised {type(err).__name__}: {err}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--full-every", type=int, default=1, metavar="K",
                        help="run the model solutions for every K-th id (default 1: every id)")
    parser.add_argument("--secret-file", default=None, metavar="FILE",
                        help="a term secret (baccarat-kit secret new FILE): keys from each id's term token")
    parser.add_argument("--term", action="store_true", help="as --secret-file, with a fresh random secret")
    args = parser.parse_args(argv)
    from baccarat_kit.grading.term.secret import TermSecret, read_secret

    secret = (read_secret(args.secret_file) if args.secret_file
              else TermSecret(__import__("secrets").token_bytes(32)) if args.term else None)
    sources = per_learner_sources()
    started, cpu = time.monotonic(), time.process_time()
    problems: list[str] = []
    full_runs = 0
    for n in range(args.start, args.start + args.ids):
        full = n % args.full_every == 0
        full_runs += full
        problems += check_id(f"s{n:06d}", sources, full, secret)
        if (n - args.start + 1) % 10_000 == 0:
            print(f"… {n - args.start + 1} ids, {len(problems)} problems", flush=True)
    seeds = f"term seeds (fingerprint {secret.fingerprint})" if secret is not None else "public-id seeds"
    print(f"{args.ids} learner ids ({seeds}) x {len(sources)} per-learner exercises "
          f"({', '.join(ex.id for _, ex in sources)}): keys for every id, model solutions for {full_runs}; "
          f"{len(problems)} problems; {time.monotonic() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
    for line in problems[:20]:
        print("  " + line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
