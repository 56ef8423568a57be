"""Train a policy on any rulelang spec with RLlib, through the PettingZoo adapter (docs/adapters.md).

    pip install "rulelang[openspiel]" "ray[rllib]" torch
    python examples/rllib_train.py examples/kuhn_poker --players 2 --iterations 20
    python examples/rllib_train.py games/jacks_friends --players 4 --env-runners 8 --address auto

A sketch for Ray 2.x's new API stack, not run by the test suite: every seat shares one PPO policy whose
logits are masked by the environment's action mask (RLlib's example ActionMaskingTorchRLModule, which
wants the observation under the key "observations"). On a Ray cluster, ``--address auto`` joins it and
``--env-runners`` spreads the games over its machines; each runner loads the spec itself, so the spec's
folder must be at the same path on every machine (or shipped with ``runtime_env={"working_dir": ...}``).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import gymnasium
import ray
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from rulelang.adapters.pettingzoo import env as rulelang_env

SHARED = "shared_policy"


class RenameObservation(BaseWrapper):
    """The adapter's {"observation", "action_mask"} as {"observations", "action_mask"}, as the module wants."""

    def observation_space(self, agent):
        space = self.env.observation_space(agent)
        return gymnasium.spaces.Dict({"observations": space["observation"], "action_mask": space["action_mask"]})

    def observe(self, agent):
        seen = self.env.observe(agent)
        return {"observations": seen["observation"], "action_mask": seen["action_mask"]}


def make_env(config: dict) -> PettingZooEnv:
    """One environment per env runner: the spec is loaded and compiled where the games are played."""
    return PettingZooEnv(RenameObservation(rulelang_env(config["path"], players=config["players"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path, help="a game folder, e.g. examples/kuhn_poker")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--address", default=None, help="a Ray cluster to join ('auto'), else a local one")
    args = parser.parse_args()

    ray.init(address=args.address)
    env_config = {"path": str(args.spec.resolve()), "players": args.players}
    register_env("rulelang", make_env)
    config = (
        PPOConfig()
        .environment("rulelang", env_config=env_config)
        .env_runners(num_env_runners=args.env_runners)
        .multi_agent(policies={SHARED}, policy_mapping_fn=lambda agent_id, episode, **kw: SHARED)
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={SHARED: RLModuleSpec(module_class=ActionMaskingTorchRLModule)}))
    )
    algorithm = config.build_algo()
    for iteration in range(args.iterations):
        result = algorithm.train()
        runners = result.get("env_runners", {})
        print(f"iteration {iteration + 1}: episodes {runners.get('num_episodes_lifetime')}, "
              f"mean return of the shared policy {runners.get('agent_episode_returns_mean')}")
    print("checkpoint:", algorithm.save())


if __name__ == "__main__":
    main()
