"""Tables in play: games (the cache, the command runner, the follower), access and tokens, the
systems and turn order. Sits on ``store`` and ``rules``."""
