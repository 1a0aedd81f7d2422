"""shenshi (神使): the GM's messenger for forum Mafia games (版杀).

Layers (see README): ``adapters`` read and write the forum, ``intake`` turns posts and PMs
into game commands, ``rulesets`` is the pure rules core, ``store`` keeps evidence and events,
``daemon`` schedules polls and deadlines and proposes announcements.
"""

__version__ = "0.1.0"
