"""The PettingZoo environment and its Gymnasium wrapper (realpolitik.env)."""

from __future__ import annotations

import copy
import itertools
import subprocess
import sys
import warnings
from typing import Any, cast

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

from realpolitik.env import DiplomacyEnv, OrderSpace, SoloEnv  # noqa: E402
from realpolitik.env.rewards import scores, shares  # noqa: E402
from realpolitik.errors import BotError  # noqa: E402
from realpolitik.game.editions import EDITIONS, edition  # noqa: E402
from realpolitik.orders import Build, Move  # noqa: E402
from realpolitik.phase import PhaseKind  # noqa: E402

TABLES = [(e, s.id) for e in EDITIONS for s in edition(e).setups]


def _random_actions(env: DiplomacyEnv, observations: Any, rng: Any) -> dict[str, Any]:
    """One uniformly drawn allowed index per province, for every live agent."""
    actions = {}
    for power in env.agents:
        counts = observations[power]["action_mask"].sum(axis=1)
        actions[power] = (rng.random(len(counts)) * counts).astype(np.int64)
    return actions


def _play(env: DiplomacyEnv, seed: int, rng: Any = None) -> tuple[int, dict[str, float], Any]:
    """A whole random episode: (steps, each agent's summed reward, last results)."""
    rng = rng or np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps, last = 0, None
    while env.agents:
        last = env.step(_random_actions(env, observations, rng))
        observations = last[0]
        for power, reward in last[1].items():
            returns[power] += reward
        steps += 1
    return steps, returns, last


@pytest.mark.parametrize(
    ("ed", "setup"), [("classic", "7"), ("classic", "2"), ("grow", "3"), ("conquista", "4")]
)
def test_parallel_api_test(ed, setup):
    env = DiplomacyEnv(ed, setup=setup, max_years=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the API test's complaints are warnings
        parallel_api_test(env, num_cycles=100)


@pytest.mark.parametrize(("ed", "setup"), TABLES)
def test_random_episodes_of_every_table(ed, setup):
    env = DiplomacyEnv(ed, setup=setup, max_years=3)
    table = edition(ed).setup(None, setup)
    played = {p for g in table.groups for p in g}
    assert set(env.possible_agents) == played | ({table.neutral.power} if table.neutral else set())
    assert not set(env.possible_agents) & set(table.out)
    steps, _, (observations, _, terminated, truncated, _) = _play(env, 5)
    assert steps >= 6
    assert all(terminated[p] or truncated[p] for p in observations)
    first = edition(ed).first_year(table)
    assert env.game.is_over or env.game.phase.year == first + 3


def test_observation_of_the_start():
    env = DiplomacyEnv("classic")
    observations, infos = env.reset(seed=1)
    assert env.agents == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert infos["FRANCE"] == {"phase": "S1901M"}
    obs = observations["FRANCE"]
    enc = env.encoding
    assert (
        len(enc.provinces) == 76
        and "SWI" in enc.index
        and enc.provinces == tuple(sorted(enc.provinces))
    )
    at = enc.index
    france, russia = enc.code["FRANCE"], enc.code["RUSSIA"]
    assert obs["power"] == france
    assert obs["units"][at["PAR"]].tolist() == [france, 1, 0]
    assert obs["units"][at["BRE"]].tolist() == [france, 2, 0]
    south = env.game.game_map.coasts("STP").index("SC") + 1
    assert obs["units"][at["STP"]].tolist() == [russia, 2, south]
    assert obs["units"][at["BUR"]].tolist() == [0, 0, 0]
    assert int((obs["units"][:, 0] > 0).sum()) == 22
    assert not obs["dislodged"].any()
    assert obs["centres"][at["PAR"]] == france
    assert obs["centres"][at["BEL"]] == 0  # a neutral centre
    assert obs["centres"][at["BUR"]] == -1  # no centre
    assert obs["phase"].tolist() == [1901, 0, 0]
    assert not obs["adjustments"].any()
    mask = obs["action_mask"]
    assert mask.shape == (76, env.encoding.choices) and mask.dtype == np.int8
    assert mask[:, 0].all()  # no order: always allowed
    legal = env.legal_orders("FRANCE")
    assert set(legal) == {"BRE", "MAR", "PAR"}
    assert mask[at["PAR"]].sum() == len(legal["PAR"]) + 1
    assert mask[at["BUR"]].sum() == 1
    for space, value in ((env.observation_space("FRANCE"), obs),):
        assert space.contains(value)


def test_the_shared_arrays_are_read_only():
    """One agent cannot change what the others observe (the empty dislodged array was
    shared by every agent's observation and writable)."""
    env = DiplomacyEnv("classic")
    observations, _ = env.reset(seed=1)
    shared = ("units", "dislodged", "centres", "phase", "adjustments")
    for power in env.agents:
        assert not any(observations[power][key].flags.writeable for key in shared), power
    with pytest.raises(ValueError, match="read-only"):
        observations["FRANCE"]["dislodged"][0, 0] = 1
    assert observations["FRANCE"]["dislodged"] is observations["ENGLAND"]["dislodged"]
    assert observations["FRANCE"]["action_mask"].flags.writeable  # the agent's own


def test_actions_give_the_chosen_orders():
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    legal = env.legal_orders("FRANCE")
    move = next(o for o in legal["PAR"] if isinstance(o, Move) and o.destination == "BUR")
    action = env.action_of("FRANCE", [move])
    assert int(action[env.encoding.index["PAR"]]) == legal["PAR"].index(move) + 1
    assert env.orders_of("FRANCE", action) == [move]
    env.step({"FRANCE": action})
    record = env.game.history[-1]
    assert record.orders["FRANCE"] == (move,)
    unit = env.game.position.units["BUR"]
    assert (unit.power, str(unit)) == ("FRANCE", "A BUR")
    assert "PAR" not in env.game.position.units
    # powers without an action gave no orders: their units held, none is in civil disorder
    assert record.orders["GERMANY"] == () and not record.disorder


def test_an_action_of_text_gives_those_orders_and_an_unlisted_order_is_refused():
    """The README's ``env.action_of(power, orders)`` took text as the rest of the library
    does and gave an action of zeros (every unit without an order), silently; so did a
    legal-looking order that is not legal."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    action = env.action_of("FRANCE", ["A Par - Bur", "F Bre - Mid-Atlantic"])
    assert sorted(str(o) for o in env.orders_of("FRANCE", action)) == ["A PAR - BUR", "F BRE - MAO"]
    with pytest.raises(ValueError, match=r"gives A PAR - MUN \(MUN is not adjacent.*\): not among"):
        env.action_of("FRANCE", ["A PAR - MUN"])
    with pytest.raises(ValueError, match="the unit in MUN belongs to GERMANY"):
        env.action_of("FRANCE", ["A MUN - BUR"])


def test_an_action_of_an_order_in_another_spelling_gives_the_listed_order():
    """``action_of`` refused legal orders that the game, the adjudicator and the tournament
    take, when the listing writes them otherwise ("A YOR - BEL" is listed "A YOR - BEL
    VIA", "F BOT - STP" "F BOT - STP/SC"), and took no ``language`` though it reads text
    "as Game.submit reads them"; each now gives the listed order of the same meaning. A
    support naming a coast, which under these rules supports a move to that coast only, has
    no index, and says so."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    env.play(
        {},
        {
            "ENGLAND": ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"],
            "FRANCE": ["F BRE - MAO"],
            "RUSSIA": ["F STP/SC - BOT"],
        },
    )
    assert str(env.game.phase) == "F1901M"
    given = {
        "ENGLAND": (["A YOR - BEL", "F ENG S ENGLAND A YOR - LON", "F NTH C YOR - BEL"],
                    ["A YOR - BEL VIA", "F ENG S A YOR - LON", "F NTH C A YOR - BEL"]),
        "RUSSIA": (["F BOT - STP", "A MOS S WAR - UKR"], ["F BOT - STP/SC", "A MOS S A WAR - UKR"]),
        "FRANCE": (["F PAR - BUR"], ["A PAR - BUR"]),  # the other type: read for the unit there
    }  # fmt: skip
    actions = {}
    for power, (orders, listed) in given.items():
        actions[power] = env.action_of(power, orders)
        assert sorted(map(str, env.orders_of(power, actions[power]))) == sorted(listed), power
    french = env.action_of("FRANCE", ["E Par - Bor", "F AtC - Esp CN"], language="es")
    assert sorted(map(str, env.orders_of("FRANCE", french))) == ["A PAR - BUR", "F MAO - SPA/NC"]
    with pytest.raises(ValueError, match=r"A MAR S F MAO - SPA/NC \(legal, but no listed order"):
        env.action_of("FRANCE", ["A MAR S F MAO - SPA/NC"])
    with pytest.raises(ValueError, match=r"F MAO - SPA \(.*coast"):  # both coasts in reach
        env.action_of("FRANCE", ["F MAO - SPA"])
    env.step(actions)
    units = {str(u) for u in env.game.position.units.values()}
    assert {"A BEL", "F STP/SC", "A BUR"} <= units


def test_an_action_of_a_waive_is_no_order_there():
    """A waived build is a legal order (``legal_orders``' ``"WAIVE"``, which the heuristic
    and search bots give) and, in an action, *no order*: ``action_of`` refused it as "not
    among its legal orders", so a bot's adjustments could not be turned into an action."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    env.play({}, {"FRANCE": ["A MAR - SPA", "F BRE - MAO"]})
    env.play({}, {"FRANCE": ["F MAO - POR"]})  # France builds two
    assert "WAIVE" in env.legal_orders("FRANCE")
    action = env.action_of("FRANCE", ["F BRE B", "WAIVE"])
    assert [str(o) for o in env.orders_of("FRANCE", action)] == ["F BRE B"]
    assert not env.action_of("FRANCE", ["WAIVE", "WAIVE"]).any()
    with pytest.raises(ValueError, match="ENGLAND: no action gives WAIVE"):  # nothing to build
        env.action_of("ENGLAND", ["WAIVE"])


def test_an_unknown_agent_is_named_by_every_question_about_it():
    """``env.legal_orders("france")`` answered ``{}``, as for a power with no choice, and
    ``orders_of``/``action_of`` blamed the action ("no order there", "no action gives");
    ``step`` already named an unknown agent."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    action = env.action_of("FRANCE", ["A PAR - BUR"])
    for agent in ("france", "SPAIN"):
        said = f"unknown agent '{agent}'; agents: AUSTRIA, ENGLAND, FRANCE"
        with pytest.raises(ValueError, match=said):
            env.legal_orders(agent)
        with pytest.raises(ValueError, match=said):
            env.legal_slots(agent)
        with pytest.raises(ValueError, match=said):
            env.orders_of(agent, action)
        with pytest.raises(ValueError, match=said):
            env.action_of(agent, ["A PAR - BUR"])
        with pytest.raises(ValueError, match=said):
            env.step({agent: action})


def test_changing_the_listed_orders_changes_no_action():
    """A policy may sort or filter the lists it is given: the env's own stay as they were
    (they were the env's lists: reversing one changed what index 1 decoded to)."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    at = env.encoding.index["PAR"]
    action = np.zeros(len(env.encoding.provinces), dtype=np.int64)
    action[at] = 1
    first = env.legal_orders("FRANCE")["PAR"][0]
    assert env.orders_of("FRANCE", action) == [first]
    env.legal_orders("FRANCE")["PAR"].reverse()
    env.legal_slots("FRANCE")[at].clear()  # type: ignore[attr-defined]
    assert env.orders_of("FRANCE", action) == [first]
    assert env.legal_orders("FRANCE")["PAR"][0] == first and env.legal_slots("FRANCE")[at]
    assert env.action_of("FRANCE", [first])[at] == 1


def test_bad_actions_are_refused_with_the_province_named():
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    at = env.encoding.index
    action = np.zeros(76, np.int64)
    action[at["BUR"]] = 1  # no French unit there
    with pytest.raises(ValueError, match="FRANCE: order index 1 for BUR: no order there"):
        env.step({"FRANCE": action})
    action = np.zeros(76, np.int64)
    action[at["PAR"]] = 120
    with pytest.raises(ValueError, match="order index 120 for PAR, which has"):
        env.step({"FRANCE": action})
    with pytest.raises(ValueError, match="76 integer order indices"):
        env.step({"FRANCE": np.zeros(75, np.int64)})
    with pytest.raises(ValueError, match="unknown agent 'SPAIN'"):
        env.step({"SPAIN": action})
    assert env.game.phase.year == 1901 and not env.game.history  # nothing was played
    lenient = DiplomacyEnv("classic", invalid="ignore")
    lenient.reset(seed=1)
    lenient.step({"FRANCE": action})  # read as no order: Paris holds
    assert lenient.game.history[-1].orders["FRANCE"] == ()
    assert lenient.game.position.units["PAR"].power == "FRANCE"


def test_an_action_of_an_agent_without_a_choice_is_checked_too():
    """An adjustment phase where England has nothing to build or remove: every row of its
    mask allows 0 alone, and an index past it is refused as anywhere else
    (``invalid="raise"``); it was passed over unread, as a wrong shape was."""
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    env.play({}, {"FRANCE": ["A MAR - SPA", "F BRE - MAO"]})
    observations, *_ = env.play({}, {"FRANCE": ["F MAO - POR"]})  # France builds two
    assert not env.legal_slots("ENGLAND") and env.legal_slots("FRANCE")
    assert observations["ENGLAND"]["action_mask"][:, 1:].sum() == 0
    action = np.zeros(76, np.int64)
    action[env.encoding.index["LON"]] = 1
    with pytest.raises(ValueError, match="ENGLAND: order index 1 for LON: no order there"):
        env.step({"ENGLAND": action})
    with pytest.raises(ValueError, match="ENGLAND: an action is 76 integer order indices"):
        env.step({"ENGLAND": np.zeros(3, np.int64)})
    assert str(env.game.phase) == "W1901A" and len(env.game.history) == 2  # nothing played
    env.step({"ENGLAND": np.zeros(76, np.int64)})  # no order: taken
    assert str(env.game.phase) == "S1902M"


def test_a_masked_sample_draws_uniformly_among_the_allowed_indices():
    space = OrderSpace(3, 10, seed=0)
    mask = np.zeros((3, 10), np.int8)
    mask[0, [0, 3, 7]] = 1
    mask[2, 5] = 1
    drawn = np.array([space.sample(mask=mask) for _ in range(3000)])
    values, counts = np.unique(drawn[:, 0], return_counts=True)
    assert values.tolist() == [0, 3, 7] and counts.min() > 900
    assert set(drawn[:, 1].tolist()) == {0}  # nothing allowed: 0
    assert set(drawn[:, 2].tolist()) == {5}


def test_a_masked_sample_draws_one_number_a_province():
    """It drew a random key for each of the 76 x 257 indices (19,532 numbers) and kept the
    largest allowed: 77 us of CPU a draw against about 20 us now (best of 7), so that the
    README's random agents (seven draws a step) spent more time drawing their actions than
    the environment spent playing the phase."""
    env = DiplomacyEnv("classic")
    observations, _ = env.reset(seed=1)
    space = env.action_space("RUSSIA")
    before = copy.deepcopy(space.np_random)
    action = space.sample(mask=observations["RUSSIA"]["action_mask"])
    before.random(76)  # one number a province, nothing else
    assert before.bit_generator.state == space.np_random.bit_generator.state
    assert env.orders_of("RUSSIA", action)  # a legal action (its units' orders)
    assert all(observations["RUSSIA"]["action_mask"][k, i] for k, i in enumerate(action))


def test_a_step_before_the_first_reset_says_so():
    """It said 'the episode is over' of an episode that never began."""
    action = np.zeros(76, np.int64)
    with pytest.raises(ValueError, match=r"^no episode yet: call reset\(\) first$"):
        DiplomacyEnv("classic").step({"FRANCE": action})
    with pytest.raises(ValueError, match=r"^no episode yet: call reset\(\) first$"):
        SoloEnv("FRANCE", opponents="random").step(action)
    env = DiplomacyEnv("classic", max_years=1)
    env.reset(seed=1)
    while env.agents:
        env.step({})
    with pytest.raises(ValueError, match=r"^the episode is over: call reset\(\)$"):
        env.step({})


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: DiplomacyEnv("classic", max_years=cast(int, "3")), "max_years must be a whole"),
        (lambda: DiplomacyEnv("classic", max_years=0), "from 1, not 0"),
        (lambda: DiplomacyEnv("classic", max_orders=cast(int, "5")), "max_orders must be a whole"),
        (lambda: DiplomacyEnv("classic", max_orders=0), "max_orders must be a whole number from 1"),
        (lambda: DiplomacyEnv("classic").reset(seed=cast(int, "x")), "seed must be a whole number"),
    ],
)
def test_bad_settings_are_named(make, said):
    """A count of years or a seed of the wrong kind failed on Python's own "'<' not
    supported" or "can only concatenate str"."""
    with pytest.raises(ValueError, match=said):
        make()


def test_builds_beyond_those_due_are_dropped():
    env = DiplomacyEnv("classic")
    observations, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.game.phase.kind is not PhaseKind.ADJUSTMENTS:
        observations = env.step(_random_actions(env, observations, rng))[0]
    due = env.game.builds_due()
    builder = next(p for p, n in due.items() if n > 0)
    slots = env.legal_slots(builder)
    assert len(slots) > due[builder]
    action = np.zeros(76, np.int64)
    for k in slots:
        action[k] = 1
    given = env.orders_of(builder, action)
    assert len(given) == len(slots) and all(isinstance(o, Build) for o in given)
    env.step({builder: action})
    record = env.game.history[-1]
    assert len(record.orders[builder]) == due[builder]
    assert list(record.orders[builder]) == given[: due[builder]]  # the first by province


@pytest.mark.parametrize("reward", ["centres", "sum_of_squares", "win"])
def test_rewards_add_up_to_the_final_score(reward):
    env = DiplomacyEnv("classic", reward=reward, max_years=4)
    _, returns, _ = _play(env, 11)
    position = env.game.position
    counts = {p: len(position.centers_of(p)) for p in env.possible_agents}
    if reward == "centres":
        assert returns == pytest.approx(
            {p: counts[p] - 3 for p in counts} | {"RUSSIA": counts["RUSSIA"] - 4}
        )
    elif reward == "sum_of_squares":
        total = sum(n * n for n in counts.values())
        start = 6 * 9 + 16
        expected = {
            p: n * n / total - (16 if p == "RUSSIA" else 9) / start for p, n in counts.items()
        }
        assert returns == pytest.approx(expected)
    else:  # cut off after 4 years: a draw of the survivors
        alive = set(env.game.survivors())
        assert returns == pytest.approx(
            {p: (1 / len(alive) if p in alive else 0.0) for p in counts}
        )


def test_the_end_of_a_shortened_game_pays_its_winners():
    env = DiplomacyEnv("1971", reward="win", last_year=1902)
    _, returns, (_, _, terminated, truncated, _) = _play(env, 8)
    result = env.game.result
    assert result is not None and result.kind == "shortened"
    assert all(terminated.values()) and not any(truncated.values())
    assert returns == {p: (1 / len(result.winners) if p in result.winners else 0.0)
                       for p in env.possible_agents}  # fmt: skip
    with pytest.raises(ValueError, match="no shortened game"):
        DiplomacyEnv("classic", last_year=1902)


def test_scores_and_shares():
    env = DiplomacyEnv("classic")
    env.reset(seed=1)
    start = env.game.position
    assert scores("centres", start, ["FRANCE", "RUSSIA"]) == {"FRANCE": 3.0, "RUSSIA": 4.0}
    squares = scores("sum_of_squares", start, env.possible_agents)
    assert squares["RUSSIA"] == pytest.approx(16 / 70)
    assert sum(squares.values()) == pytest.approx(1)
    assert set(scores("win", start, ["FRANCE"]).values()) == {0.0}
    players = {"ann": ("ENGLAND", "FRANCE"), "bob": ("GERMANY",), "cy": ("ITALY",)}
    assert shares(players, ["ann"]) == {"ENGLAND": 1.0, "FRANCE": 1.0}
    assert shares(players, ["bob", "cy"]) == {"GERMANY": 0.5, "ITALY": 0.5}


def test_same_seed_same_episode():
    def trace(seed: int) -> tuple[Any, ...]:
        env = DiplomacyEnv("grow", max_years=3)
        steps, returns, _ = _play(env, seed)
        return steps, returns, [str(r.phase) for r in env.game.history], env.game.position

    assert trace(4) == trace(4)
    assert trace(4)[3] != trace(5)[3]


def test_same_seed_same_episode_against_search_bots_on_a_slower_machine(monkeypatch):
    """The solo environment's search opponents stopped at their time limit (0.4 s) where
    the machine was slower or busier, and the same seed gave another episode. They search
    by their strength alone."""

    def trace() -> list[Any]:
        env = SoloEnv("FRANCE", opponents="search", max_years=1)
        env.reset(seed=2)
        while env.env.agents:
            env.step(np.zeros(len(env.env.encoding.provinces), np.int64))
        return [(r.phase, r.orders) for r in env.env.game.history]

    fast = trace()
    clock = itertools.count(step=10.0)  # each reading of the clock 10 s on
    monkeypatch.setattr("realpolitik.bots.search.time.perf_counter", lambda: next(clock))
    assert trace() == fast


def test_a_seed_of_numpy_is_a_seed_and_a_negative_one_is_refused_before_anything_changes():
    """Seeds drawn with numpy (``np.int64``) failed on Python's random ("The only supported
    seed types are..."); a negative one failed in gymnasium's seeding of the action spaces,
    after the environment's own sequence had been reseeded with it."""
    env = DiplomacyEnv("classic", max_years=1)
    env.reset(seed=np.int64(3))
    first = env.game.seed
    env.reset(seed=3)
    assert env.game.seed == first
    following = DiplomacyEnv("classic")
    following.reset(seed=3)
    following.reset()  # the next seed of the sequence that seed 3 began
    with pytest.raises(ValueError, match="seed must be a whole number from 0, not -1"):
        env.reset(seed=-1)
    assert env.game.seed == first  # the episode goes on
    env.reset()
    assert env.game.seed == following.game.seed


def test_solo_env_passes_gymnasiums_checker_and_plays_against_bots():
    env = SoloEnv("FRANCE", opponents="heuristic", max_years=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the checker's note that no render spec exists)
        check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=2)
    assert info["phase"] == "S1901M"
    total, done = 0.0, False
    while not done:
        action = env.action_space.sample(mask=observation["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert truncated and not terminated and info["phase"] == "S1904M"
    game = env.env.game
    assert total == len(game.position.centers_of("FRANCE")) - 3
    # the bots ordered every phase: nobody fell into civil disorder
    assert not any(r.disorder for r in game.history)
    assert all(r.orders.get("GERMANY") for r in game.history if r.phase.kind is PhaseKind.MOVEMENT)


def test_gymnasium_makes_the_solo_env_by_its_id():
    """``gymnasium.make("realpolitik/Solo-v0", ...)``: the registered id, its arguments
    SoloEnv's; a fresh interpreter gets it by naming the module in the id."""
    import gymnasium

    env = gymnasium.make("realpolitik/Solo-v0", power="GERMANY", opponents="random", max_years=1)
    solo = env.unwrapped
    assert isinstance(solo, SoloEnv) and solo.power == "GERMANY"
    assert solo.kinds == dict.fromkeys(solo.kinds, "random") and len(solo.kinds) == 6
    observation, info = env.reset(seed=3)
    assert info["phase"] == "S1901M"
    action = env.action_space.sample(mask=observation["action_mask"])
    _, _, terminated, truncated, info = env.step(action)
    assert info["phase"] == "F1901M" and not (terminated or truncated)
    code = (
        "import gymnasium; env = gymnasium.make('realpolitik.env:realpolitik/Solo-v0', "
        "edition='grow', players=3, power='ENGLAND'); print(type(env.unwrapped).__name__, "
        "env.reset(seed=1)[1]['phase'])"
    )
    made = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert made.stdout.split() == ["SoloEnv", "S1901M"], made.stderr


def test_solo_env_shows_the_bots_the_editions_rules(monkeypatch):
    shown = []

    class Holding:
        name = "holding"

        def orders(self, view, legal):
            shown.append(view.rules)
            return []

    monkeypatch.setattr("realpolitik.env.solo.make_bot", lambda kind, **_: Holding())
    env = SoloEnv("FRANCE", opponents="random", edition="conquista", max_years=1)
    env.reset(seed=1)
    env.step(np.zeros(env.action_space.shape, np.int64))  # the bots order in this step
    assert shown and all(rules is env.env.game.rules for rules in shown)
    assert shown[0].foreign_support == "acknowledged"


class Doubling:
    """A bot of one's own with a slip: every unit's first two orders."""

    name = "doubling"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def orders(self, view: Any, legal: Any) -> list[Any]:
        return [o for options in legal.values() for o in options[:2]]


def test_a_bots_order_that_the_game_refuses_names_the_bot_in_the_solo_env():
    """An opponent's order the game refuses was the game's error alone ("ITALY: F NAP -
    APU: a second order for NAP"), where self-play and the commands name the bot, the
    phase and the game (submit_bot_orders); the learner's step changes nothing."""
    others = ["AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    kinds = {p: f"{__name__}:Doubling" if p == "ITALY" else "random" for p in others}
    env = SoloEnv("FRANCE", opponents=kinds, max_years=2)
    env.reset(seed=1)
    said = (
        r"^the bot 'doubling' gave ITALY's orders for S1901M \(game seed \d+\) that the game "
        r"refuses: ITALY: F NAP - APU: a second order for NAP$"
    )
    with pytest.raises(BotError, match=said):
        env.step(np.zeros(env.action_space.shape, np.int64))
    assert str(env.env.game.phase) == "S1901M" and not env.env.game.history


def test_solo_env_skips_the_phases_without_a_choice():
    env = SoloEnv("ITALY", opponents="random", players=2, max_years=3)
    _, info = env.reset(seed=2)  # Italy is neutral until the coin toss gives it to a side
    assert info["phase"] == "S1915M"
    assert env.env.game.controller("ITALY") is not None
    with pytest.raises(ValueError, match="ITALY gets no choice before the episode ends"):
        SoloEnv("ITALY", players=2, max_years=1).reset(seed=2)
    with pytest.raises(ValueError, match="not played at this table"):
        SoloEnv("ITALY", players=6)
    with pytest.raises(ValueError, match="unknown bot"):
        SoloEnv("FRANCE", opponents="clever")


def test_importing_realpolitik_imports_no_numpy():
    code = (
        "import sys, realpolitik, realpolitik.game, realpolitik.bots, realpolitik.cli;"
        "assert 'numpy' not in sys.modules, 'numpy'; assert 'gymnasium' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
