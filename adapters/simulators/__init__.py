"""Devices in software, for the tests, the benchmarks and a demo without hardware."""
