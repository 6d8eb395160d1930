"""Show the running stack's process logs in the report of any topology test that fails, and fail a test after which
a process of the stack is found dead that no test stopped on purpose."""

from __future__ import annotations

import pytest

from tests.topology.stack import RUNNING_STACK


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    stack = item.config.stash.get(RUNNING_STACK, None)
    if report.failed and stack is not None:
        report.sections.append(("log tails of the stack's processes", stack.log_tails()))


@pytest.fixture(autouse=True)
def _no_process_of_the_stack_died(request):
    yield
    stack = request.config.stash.get(RUNNING_STACK, None)
    if stack is not None:
        stack.check_running()
