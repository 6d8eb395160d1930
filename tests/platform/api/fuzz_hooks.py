"""schemathesis hooks for the command-line run of test_coverage_phase.py (loaded through SCHEMATHESIS_HOOKS).

A request whose path names an object by id is sent to a real one of the test's world (the ids come in
TURNBASED_FUZZ_TARGETS, JSON by parameter name), so the body and query behind it reach the code that reads
them instead of a 404. A path parameter the case made invalid on purpose (a negative case) is left as it is.
"""

from __future__ import annotations

import json
import os

import schemathesis

TARGETS: dict[str, int | str] = json.loads(os.environ.get("TURNBASED_FUZZ_TARGETS", "{}"))


@schemathesis.hook
def before_call(context, case, kwargs):
    parameters = case.path_parameters or {}
    for name, value in TARGETS.items():
        drawn = parameters.get(name)
        if type(drawn) is type(value) and (not isinstance(value, int) or drawn >= 0):
            parameters[name] = value
