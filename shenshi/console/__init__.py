"""The GM console (``shenshi console``, ``shenshi run --console``): a local web page that shows
everything the daemon knows about a game and asks of the GM, and takes his decisions.

- :mod:`.auth`      the token (a 0600 file beside the database), the cookie, CSRF, the Gate
- :mod:`.desk`      the games served (started services kept in step with the store)
- :mod:`.views`     what the pages show beyond the status model (outbox, evidence, seats, activity)
- :mod:`.timeline`  the game's steps from its stored events
- :mod:`.bbcode`    BBCode rendered safely
- :mod:`.app`       the Starlette application (pages and actions)
- :mod:`.server`    serving it with uvicorn (foreground, or beside the daemon)

Every action is the CLI command's own operation (:mod:`shenshi.daemon.gm_commands`).
"""
