"""What keeps every copy and every subscriber current with no request under way: the hub's
fan-out, the bus between servers, revocation. Sits on ``tables``."""
