"""Start-up of one engine in a fresh process: import it, then set up a new game (importing
what that needs).

    PYTHON bench/startup.py realpolitik|diplomacy

Prints ``{"import": seconds, "new_game": seconds}``. Nothing else is imported before the
clock starts (the runner also times the whole process, interpreter start included).
"""

import sys
import time

start = time.process_time()
if sys.argv[1] == "realpolitik":
    import realpolitik  # noqa: F401  (what is timed)

    imported = time.process_time()
    from realpolitik.game import Game

    Game.new(seed=1)
else:
    import diplomacy

    imported = time.process_time()
    diplomacy.Game()
done = time.process_time()
print(f'{{"import": {imported - start}, "new_game": {done - imported}}}')
