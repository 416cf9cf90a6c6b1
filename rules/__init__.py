"""The initiative systems Seize runs, as pure deciders: no I/O, no clock, no global randomness."""
