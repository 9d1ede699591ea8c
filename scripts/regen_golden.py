"""Write golden game logs into tests/golden/ (run deliberately: goldens pin behaviour).

    python scripts/regen_golden.py GAME SEED [--players N] [--variant V]... [--agent A]... [--rng R]
    python scripts/regen_golden.py --all      # rewrite every existing golden from its own header

A golden log is named ``<game>[+variants]-p<players>-<rng>-<seed>-<agents>.json``. The tests
replay every golden and re-simulate it, requiring byte-identical output.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.files import write_atomic
from cardgames.engine.log import build_log, dumps, read_log, rng_mode
from cardgames.engine.registry import load_game

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"


def simulate(game_id: str, seed: str, players: int | None, variants: list[str], agents: list[str],
             rng: str) -> tuple[str, bytes]:
    game = load_game(game_id, variants, players)
    run = play(game, game.check_seed(seed, rng), make_agents(agents, game), rng)
    log = build_log(game, run)
    name = "+".join([game.id, *game.spec.variants])
    name = f"{name}-p{game.num_players}-{rng}-{run.seed}-{'_'.join(run.agents)}.json"
    return name, dumps(log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?")
    parser.add_argument("seed", nargs="?")
    parser.add_argument("--players", type=int)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--agent", action="append", default=[])
    parser.add_argument("--rng", default="native")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    GOLDEN.mkdir(exist_ok=True)
    if args.all:
        for path in sorted(GOLDEN.glob("*.json")):
            log = read_log(path)
            _, data = simulate(log["game"], str(log["seed"]), log["players"], log["variants"], log["agents"],
                               rng_mode(log["rng"]))
            write_atomic(path, data)
            print(f"rewrote {path.name}")
        return
    if not (args.game and args.seed):
        parser.error("give GAME SEED, or --all")
    name, data = simulate(args.game, args.seed, args.players, args.variant, args.agent, args.rng)
    write_atomic(GOLDEN / name, data)
    print(f"wrote {name}")


if __name__ == "__main__":
    main()
