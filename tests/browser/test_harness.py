"""The harness itself: a plain ipywidgets notebook in JupyterLab, driven by Playwright.

If this fails, the browser setup (server, Chromium, widget rendering) is broken, not the kit.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CELLS = (
    "import ipywidgets as w\n"
    "pick = w.Dropdown(options=['A', 'B', 'C'], value='A')\n"
    "pick.add_class('probe-pick')\n"
    "out = w.HTML('picked A')\n"
    "out.add_class('probe-out')\n"
    "pick.observe(lambda change: setattr(out, 'value', f\"picked {change['new']}\"), 'value')\n"
    "w.VBox([pick, out])",
)


def test_a_dropdown_change_reaches_the_kernel_and_back(open_lab, make_notebook):
    from playwright.sync_api import expect

    page = open_lab(make_notebook(*CELLS))
    out = page.locator(".probe-out")
    expect(out).to_have_text("picked A")
    page.locator(".probe-pick select").select_option("C")
    expect(out).to_have_text("picked C")

