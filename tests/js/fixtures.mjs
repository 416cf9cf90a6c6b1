// What a real server served for each system, written by tests/test_javascript.py.
import { readFileSync } from "node:fs";

export const fixtures = JSON.parse(readFileSync(process.env.SEIZE_FIXTURES, "utf8"));
export const SYSTEMS = ["four-color", "megatraveller-rcs", "awareness"];
