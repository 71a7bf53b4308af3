"""The fixed cost of a native agent's decision called from Python: 2,000 forced moves
(one legal action) through ``BuiltinAgent("expert")``, in CPU and wall microseconds per
call, and one whole ``Match.play`` between two ``BuiltinAgent("pimc")``.

    RAYON_NUM_THREADS=1 python benches/agent_call_overhead.py
"""

import time

from ecarte import duel

d = duel.Deal(seed=3)
obs, legal = d.observation(d.current_player), d.legal_actions()[:1]
agent = duel.BuiltinAgent("expert", 1)
cpu, wall = time.process_time(), time.perf_counter()
for _ in range(2000):
    agent(obs, legal)
cpu, wall = (time.process_time() - cpu) / 2e-3, (time.perf_counter() - wall) / 2e-3
print(f"forced move: {cpu:.1f} us cpu, {wall:.1f} us wall")

cpu, wall = time.process_time(), time.perf_counter()
duel.Match(seed=1).play(duel.BuiltinAgent("pimc", 1), duel.BuiltinAgent("pimc", 2))
print(
    f"Match.play, pimc v pimc: {time.perf_counter() - wall:.2f} s wall, "
    f"{time.process_time() - cpu:.2f} s cpu"
)
