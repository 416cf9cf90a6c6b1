"""The demo: its tables, their simulated devices, and the scene played in the terminal."""
