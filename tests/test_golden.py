"""Golden logs: every file in tests/golden/ replays, and re-simulating it gives the same bytes.

Goldens are written only deliberately, with scripts/regen_golden.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.log import build_log, dumps, read_log, replay, rng_mode
from cardgames.engine.registry import load_game

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_goldens():
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_log_is_reproduced_byte_for_byte(path: Path):
    log = read_log(path)
    replay(log)
    game = load_game(log["game"], log["variants"], log["players"])
    run = play(game, log["seed"], make_agents(log["agents"], game), rng_mode(log["rng"]))
    assert dumps(build_log(game, run)) == path.read_bytes()
