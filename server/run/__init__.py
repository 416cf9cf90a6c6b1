"""Running the server: the command line, the app put together from every room's routes,
workers, event loops and logs. The top room: it may import every other."""
