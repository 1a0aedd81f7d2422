"""The scripted games (scenario format, with their expected outcomes)."""
