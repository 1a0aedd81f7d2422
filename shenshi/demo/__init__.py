"""The demo and the end-to-end harness: scripted players on the sandbox forum, and the daemon.

Map::

    script      the scripted games (games/full-<ruleset>.json) and their expected outcomes
    world       a seeded sandbox forum with the game's threads, and the daemon's config
    players     scripted players (seeded), with the mistakes people make
    director    the loop: players act, the daemon cycles, the GM approves, the clock jumps
"""
