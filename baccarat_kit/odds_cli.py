"""``baccarat-kit odds``: the exact table of a shoe, optionally beside a simulation.

A command on top of :mod:`.odds` and :mod:`.simulation`, kept apart so that the exact odds
never import the simulation that uses them.
"""

from __future__ import annotations

from typing import Any

from .odds import exact_odds


def register_cli(sub: Any) -> None:
    """Add ``odds`` to the command line's sub-parsers."""
    p = sub.add_parser(
        "odds",
        help="exact odds and house edges of every bet / 各注精確機率與莊家優勢",
        description="Exact probabilities and house edges of every bet of every pay table, "
                    "by complete enumeration; --shoes N also deals N simulated shoes.",
    )
    p.add_argument("--decks", type=int, default=8, help="decks in the shoe (default 8)")
    p.add_argument("--shoes", type=int, default=0, help="also simulate this many shoes")
    p.add_argument("--seed", type=int, default=None, help="seed of the simulation")
    p.set_defaults(func=_cmd_odds)


def _cmd_odds(args: Any) -> int:
    print(exact_odds(args.decks).report(args.lang))
    if args.shoes:
        from .simulation import simulate

        print()
        print(simulate(args.shoes, args.decks, args.seed, detail=False).summary(args.lang))
    return 0
