"""axe-core in the browser tests: run it on a page (or a part of it) and return what it finds.

axe-core is vendored (``tests/browser/vendor/axe.min.js``, version ``AXE_VERSION`` from the npm registry,
MPL-2.0, its licence beside it), so the tests need no network and ``.ci/run`` installs nothing for it.
To update it: ``npm pack axe-core@<version>`` and copy ``package/axe.min.js`` and ``package/LICENSE`` here.

The script is put into the page through the DevTools protocol (Playwright's ``evaluate``), which the
page's Content-Security-Policy does not govern, so no violation is reported for it.

    from tests.browser.axe import axe_violations, serious
    assert serious(axe_violations(page, within="#board")) == []
"""

from __future__ import annotations

from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_SOURCE = Path(__file__).parent / "vendor" / "axe.min.js"
# The impacts a page must not have (axe's four: minor, moderate, serious, critical).
BLOCKING = ("critical", "serious")

_RUN = """async ([selector, rules]) => {
  const options = {resultTypes: ["violations"]};
  if (rules) options.runOnly = {type: "rule", values: rules};
  const found = await window.axe.run(selector ? {include: [selector]} : document, options);
  return found.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html.slice(0, 300),
                              summary: n.failureSummary}))
  }));
}"""


def inject_axe(page) -> None:
    """Put axe-core into ``page`` once (a navigation drops it: call again after one)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8") + "\n;undefined")
    version = page.evaluate("() => window.axe.version")
    assert version == AXE_VERSION, f"axe-core {version} in the page, {AXE_VERSION} expected"


def axe_violations(page, within: str | None = None, rules: list[str] | None = None) -> list[dict]:
    """Return axe's violations on ``page``, only inside the element ``within`` (a CSS selector) when given.

    Each is ``{id, impact, help, nodes: [{target, html, summary}]}``; ``rules`` runs only those rules.
    """
    inject_axe(page)
    return page.evaluate(_RUN, [within, rules])


def serious(violations: list[dict]) -> list[dict]:
    """Return the critical and serious ones among ``violations``."""
    return [violation for violation in violations if violation["impact"] in BLOCKING]


def described(violations: list[dict]) -> str:
    """Return the violations as lines a failing assertion can show: rule, impact, and each node."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines += [f"    {node['target']}: {node['summary']}\n      {node['html']}" for node in violation["nodes"]]
    return "\n".join(lines)
