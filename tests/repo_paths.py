"""Where things are in the repository, for tests in any folder."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TRACKS = ROOT / "tracks"
