#!/usr/bin/env python3
"""Check that engine changes keep games identical: the determinism digests.

Plays the seeded games of ``tests/digests.py`` (bot games, the engine alone,
views, determinized worlds, a strong bot, records; see there) and prints one
digest per kind of game, each compared with the one stored in
``tests/digests.json``. The test suite checks the ``fast`` size (``make
test``) and the ``full`` size (``make test-deep``); this prints either, as it
goes. A change of the rules changes digests on purpose: ``--write`` stores
the new ones (say why in the commit).

Run from the repository root: ``python benchmarks/digest.py [--size full] [--write]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from digests import SIZES, STORED, digests, stored  # noqa: E402  (after the path is set)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=SIZES, default="fast", help="games per case")
    parser.add_argument("--write", action="store_true", help="store the digests computed")
    args = parser.parse_args()
    kept = stored().get(args.size, {})

    def show(name: str, value: str) -> None:
        mark = "same" if kept.get(name) == value else "CHANGED" if name in kept else "new"
        print(f"{name:<45} {value}  {mark}", flush=True)

    found = digests(args.size, show)
    changed = sorted(name for name in found if kept.get(name) != found[name])
    print(f"{len(found) - len(changed)} of {len(found)} digests as stored")
    if args.write:
        data = stored() | {args.size: found}
        STORED.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"stored in {STORED.relative_to(ROOT)}")
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
